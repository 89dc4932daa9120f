/// Resets scopes of the container that resolved it: what app code that logs out uses instead of
/// a container it captured, so that in a test the same code resets the test container, and in
/// the app the app's container.
///
/// It resolves without a registration, as `Provider` does:
///
/// ```swift
/// container.register(SessionController.self) { r in SessionController(scopes: try r.resolve(ScopeResetter.self)) }
///
/// final class SessionController {
///     let scopes: ScopeResetter
///     init(scopes: ScopeResetter) { self.scopes = scopes }
///     func logOut() { scopes.reset(.session) }             // the app's container, or the test's
/// }
/// ```
///
/// It holds its container weakly, as a `Provider` does: resetting once the container is gone
/// does nothing. A reset through a child container leaves what its parent keeps, as
/// `Container.resetScope(_:)` does.
public struct ScopeResetter: Sendable, ImplicitlyResolvable {
    private let source: WeakSource

    private init(source: WeakSource) {
        self.source = source
    }

    /// The resetter of `source`, the container (or test container) a resolution runs on.
    package static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> ScopeResetter {
        ScopeResetter(source: WeakSource(source, graph: nil))
    }

    /// Drops the instances the container that resolved this keeps for `scope`, as its
    /// `resetScope(_:)` does; the next resolution makes new ones.
    ///
    /// ```swift
    /// scopes.reset(.session)
    /// ```
    public func reset(_ scope: Scope) {
        source.resetKeptInstances(of: scope)
    }
}
