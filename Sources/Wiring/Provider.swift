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

    package static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> Provider {
        Provider(WeakSource(source, graph: graph), name: name)
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

    package static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> Lazy {
        Lazy(WeakSource(source, graph: graph), name: name)
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
///
/// Used while the resolution that made it runs, it resolves inside that resolution (see
/// `ResolutionThread`). Used afterwards, each call is a top-level resolve that starts with the
/// `.graph` objects of that resolution still alive, so it gives the graph's own instances.
final class WeakSource: Resolver, @unchecked Sendable {
    // Set once in `init`, never changed: reading them from any thread is safe.
    private weak var source: (any ResolutionSource)?
    private let graph: SharedGraph?

    init(_ source: any ResolutionSource, graph: SharedGraph?) {
        self.source = source
        self.graph = graph
    }

    private func source(for key: @autoclosure () -> ServiceKey) throws -> any ResolutionSource {
        guard let source else { throw ResolutionError.containerReleased(for: key()) }
        return source
    }

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        let key = ServiceKey(serviceType, name: name)
        let source = try source(for: key)
        guard let graph else { return try source.resolve(serviceType, name: name) }
        return try source.resolveTopLevel(key, as: serviceType, sharing: graph)
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
