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

    /// Called after the resolve that injected it, a provider makes a new resolve each time, as
    /// Swinject's does: it does not start from that resolve's `.graph` objects (a `Lazy` does).
    package static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> Provider {
        Provider(WeakSource(source, graph: nil), name: name)
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

/// A type resolved without runtime arguments that takes them when it is called (`Provider<T>`):
/// what the fix of a `not-registered` error says instead of registering it.
package protocol TakesArgumentsWhenCalled {
    /// The type it resolves when called.
    static var providedType: any Any.Type { get }
}

/// A type that resolves another when used (`Provider`, `Lazy`): what depends on one depends on
/// what it resolves, and on whatever answers that key.
package protocol ResolvesLater {
    /// The type it resolves.
    static var resolvedType: any Any.Type { get }
}

extension ResolvesLater {
    /// The key a `key` of this type resolves when used: the same name, and the runtime
    /// arguments a `Lazy` was resolved with (a provider's come with each call).
    package static func resolvedKey(for key: ServiceKey) -> ServiceKey {
        ServiceKey(serviceType: resolvedType, name: key.name, argumentList: key.argumentList)
    }
}

extension ServiceKey {
    /// For a `Provider` or a `Lazy`, the key it resolves when used; `nil` for any other type.
    package var resolvedLater: ServiceKey? {
        (serviceType as? any ResolvesLater.Type)?.resolvedKey(for: self)
    }
}

extension Provider: ResolvesLater {
    package static var resolvedType: any Any.Type { Service.self }
}

extension Lazy: ResolvesLater {
    package static var resolvedType: any Any.Type { Service.self }
}

extension Provider: TakesArgumentsWhenCalled {
    package static var providedType: any Any.Type { Service.self }
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
///
/// Resolved with runtime arguments (`resolve(Lazy<Dog>.self, arguments: "Rex", 3)`), it keeps
/// them and resolves the registration that takes them on first use.
public final class Lazy<Service>: @unchecked Sendable, ImplicitlyResolvable {
    private let resolver: (any Resolver)?
    /// What it resolves: the type, the name and the types of the arguments it was given.
    private let key: ServiceKey
    /// Resolves the service from `resolver`, with the runtime arguments, if any. Called by one
    /// thread at a time (others wait for its result), but for a thread already resolving (see
    /// ``value``): only then may arguments that are not `Sendable` be used by two threads at once.
    private let resolveService: (any Resolver) throws -> Service
    /// The result once resolved, and the thread resolving it meanwhile: others wait for it.
    private let state = ConditionState(Progress())

    private struct Progress {
        var result: Result<Service, ResolutionError>?
        var resolvingThread: UInt?
    }

    private enum Turn {
        case resolved(Result<Service, ResolutionError>)
        /// The caller resolves, and publishes the result.
        case resolve
        /// The caller's thread is resolving it already, further up: the call runs inside that
        /// resolution, where the lazy's own service is on the path, so it reports the cycle.
        case resolveInside
        /// Another thread is resolving it while the caller is inside a resolution of its own,
        /// whose steps may hold claims that thread waits for: the caller resolves it too, and
        /// the first result published is every caller's.
        case resolveAlongside
    }

    /// A lazy service resolving `Service` (under `name`) from `resolver` on first use.
    public init(_ resolver: any Resolver, name: String? = nil) {
        self.resolver = resolver
        self.key = ServiceKey(Service.self, name: name)
        self.resolveService = { try $0.resolve(Service.self, name: name) }
    }

    /// A lazy service resolving, on first use, the registration of `Service` (under `name`)
    /// whose factory takes runtime arguments, with these arguments.
    ///
    /// ```swift
    /// let rex = Lazy<Dog>(container, arguments: "Rex", 3)
    /// let dog = try rex.value          // resolve(Dog.self, arguments: "Rex", 3), once
    /// ```
    /// - Parameters:
    ///   - resolver: What to resolve from.
    ///   - name: The registration's name, if any.
    ///   - arguments: The runtime arguments; their types are part of the key.
    public init<each Argument>(_ resolver: any Resolver, name: String? = nil, arguments: repeat each Argument) {
        let arguments = (repeat each arguments)
        self.resolver = resolver
        self.key = ServiceKey(
            serviceType: Service.self, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        self.resolveService = { try $0.resolve(Service.self, name: name, arguments: repeat each arguments) }
    }

    package init(unbound name: String?) {
        self.resolver = nil
        self.key = ServiceKey(Service.self, name: name)
        self.resolveService = { try $0.resolve(Service.self, name: name) }
    }

    package static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> Lazy {
        Lazy(WeakSource(source, graph: graph), name: name)
    }

    /// The service, resolved on the first call; later calls return the same result. A read on
    /// another thread meanwhile waits for it, unless that thread is itself resolving (a factory
    /// or hook reading the lazy): it then resolves the service too rather than wait for a thread
    /// that may be waiting for it, and both get the first result.
    public var value: Service {
        get throws(ResolutionError) {
            let thread = currentThreadIdentity()
            let turn = state.withLockWaiting { progress -> ConditionStep<Turn> in
                if let result = progress.result { return .done(.resolved(result)) }
                guard let resolving = progress.resolvingThread else {
                    progress.resolvingThread = thread
                    return .done(.resolve)
                }
                if resolving == thread { return .done(.resolveInside) }
                // Waiting here is not a claim the engine sees: a wait that closes a cycle with
                // the other thread's claims would never end.
                return ResolutionThread.isResolving ? .done(.resolveAlongside) : .wait
            }
            switch turn {
            case .resolved(let result):
                return try result.get()
            case .resolveInside:
                return try resolveOnce()
            case .resolve, .resolveAlongside:
                let result = Result { () throws(ResolutionError) in try resolveOnce() }
                let published = state.withLock(broadcasting: true) { progress in
                    let published = progress.result ?? result
                    progress.result = published
                    if case .resolve = turn { progress.resolvingThread = nil }
                    return published
                }
                return try published.get()
            }
        }
    }

    private func resolveOnce() throws(ResolutionError) -> Service {
        guard let resolver else { throw ResolutionError.noContainer(for: key) }
        do {
            return try resolveService(resolver)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(key: key, path: [key], reason: .factoryFailed(underlying: error))
        }
    }

    /// The same as ``value``.
    public func callAsFunction() throws(ResolutionError) -> Service {
        try value
    }

    /// Whether the service has been resolved (successfully or not).
    public var isResolved: Bool {
        state.withLock { $0.result != nil }
    }
}

/// `Lazy<T>` resolved with runtime arguments: a registration per argument list, made when first
/// asked for, whose lazies keep the arguments for their first use.
extension Lazy: ImplicitlyRegistered {
    package static func implicitEntry(for key: ServiceKey, site: RegistrationSite) -> RegistrationEntry? {
        guard key.takesArguments else { return nil }
        return key.argumentList.accept(LazyWithArguments<Service>(key: key, site: site))
    }
}

/// Makes the implicit registration of `Lazy<Service>` for one list of argument types.
private struct LazyWithArguments<Service>: ArgumentListVisitor {
    let key: ServiceKey
    let site: RegistrationSite

    func visit<each Argument>(_ types: repeat (each Argument).Type) -> RegistrationEntry {
        let name = key.name
        return ArgumentFactoryEntry<Lazy<Service>>(
            key: key, site: site, options: .init(scope: .transient, isImplicit: true)
        ) { resolver, arguments in
            let resolution = try resolver.runningResolution()
            let values = arguments.read(as: (repeat each Argument).self)
            return Lazy(
                WeakSource(resolution.source, graph: resolution.sharedGraph()), name: name, arguments: repeat each values)
        }
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

    /// Drops what the source keeps for `scope`, if it still exists.
    func resetKeptInstances(of scope: Scope) {
        source?.resetKeptInstances(of: scope)
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
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        let source = try source(for: key)
        guard let graph else { return try source.resolve(serviceType, name: name, arguments: repeat each arguments) }
        return try Resolution.run(from: source, sharing: graph) {
            try $0.resolvePassing(key, as: serviceType, found: nil, arguments: repeat each arguments)
        }
    }

    func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source(for: ServiceKey(serviceType)).resolveAll(serviceType)
    }
}
