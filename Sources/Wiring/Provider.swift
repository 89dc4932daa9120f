/// Resolves a service afresh on every call, honouring its scope. Resolve one without registering it.
///
/// ```swift
/// let makeCat = try container.resolve(Provider<Animal>.self)
/// let fresh = try makeCat()               // a new resolution each call
/// ```
///
/// Inject a provider to make many instances, or to break a dependency cycle: nothing is
/// resolved until it is called, so a missing service fails at the call, not at injection.
public struct Provider<Service>: Sendable, ImplicitlyResolvable {
    private let resolver: any Resolver
    /// The name of the registration it resolves, if any.
    public let name: String?

    /// A provider resolving `Service` (under `name`) from `resolver` on each call.
    public init(_ resolver: any Resolver, name: String? = nil) {
        self.resolver = resolver
        self.name = name
    }

    package static func implicitInstance(name: String?, source: any ResolutionSource) -> Provider {
        Provider(WeakSource(source), name: name)
    }

    /// Resolves the service.
    public func callAsFunction() throws -> Service {
        try resolver.resolve(Service.self, name: name)
    }

    /// Resolves the service registered with runtime arguments of these types.
    public func callAsFunction<each Argument>(_ arguments: repeat each Argument) throws -> Service {
        try resolver.resolve(Service.self, name: name, arguments: repeat each arguments)
    }
}

/// Resolves a service once, on first use, and keeps it. Safe to share between threads: the
/// first caller resolves, the others wait for its result.
///
/// ```swift
/// final class Checkout {
///     let payments: Lazy<Payments>
///     init(resolver: Resolver) throws { payments = try resolver.resolve() }
///     func pay() throws { try payments.value.charge() }
/// }
/// ```
public final class Lazy<Service>: @unchecked Sendable, ImplicitlyResolvable {
    private let resolver: (any Resolver)?
    private let name: String?
    private let state = LockedState<Result<Service, ResolutionError>?>(nil)
    private let gate = RecursiveLock()

    /// A lazy service resolving `Service` (under `name`) from `resolver` on first use.
    public init(_ resolver: any Resolver, name: String? = nil) {
        self.resolver = resolver
        self.name = name
    }

    package init(unbound name: String?) {
        self.resolver = nil
        self.name = name
    }

    package static func implicitInstance(name: String?, source: any ResolutionSource) -> Lazy {
        Lazy(WeakSource(source), name: name)
    }

    /// The service, resolved on the first call; later calls return the same result.
    public var value: Service {
        get throws(ResolutionError) {
            if let done = state.withLock({ $0 }) { return try done.get() }
            gate.lock()
            defer { gate.unlock() }
            if let done = state.withLock({ $0 }) { return try done.get() }
            let result = Result { () throws(ResolutionError) in try resolveOnce() }
            state.withLock { $0 = result }
            return try result.get()
        }
    }

    private func resolveOnce() throws(ResolutionError) -> Service {
        guard let resolver else { throw ResolutionError.noContainer(for: ServiceKey(Service.self, name: name)) }
        return try resolver.resolveTyped(Service.self, name: name)
    }

    /// The same as ``value``.
    public func callAsFunction() throws(ResolutionError) -> Service {
        try value
    }

    /// Whether the service has been resolved (successfully or not).
    public var isResolved: Bool {
        state.withLock { $0 != nil }
    }
}

/// The container behind a `Provider` or `Lazy` that a resolution made, held weakly: an instance
/// that keeps one (a `.container` singleton, say) must not keep its container alive for ever.
/// Used once the container is gone, it throws `container-released`.
final class WeakSource: Resolver, @unchecked Sendable {
    // Set once in `init`, never changed: reading it from any thread is safe.
    private weak var source: (any ResolutionSource)?

    init(_ source: any ResolutionSource) {
        self.source = source
    }

    private func source(for key: @autoclosure () -> ServiceKey) throws -> any ResolutionSource {
        guard let source else { throw ResolutionError.containerReleased(for: key()) }
        return source
    }

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try source(for: ServiceKey(serviceType, name: name)).resolve(serviceType, name: name)
    }

    func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        try source(for: ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self))
            .resolve(serviceType, name: name, arguments: repeat each arguments)
    }

    func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source(for: ServiceKey(serviceType)).resolveAll(serviceType)
    }
}
