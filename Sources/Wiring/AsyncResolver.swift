extension Resolver {
    /// This resolver's async form, so that code taking any resolver can resolve services whose
    /// factories need `await`: a container's or a test container's `async`.
    ///
    /// ```swift
    /// func openSession(from resolver: any Resolver) async throws -> Session {
    ///     try await Session(database: resolver.async.resolve(Database.self))
    /// }
    /// try await openSession(from: container)      // or from a TestContainer
    /// ```
    ///
    /// A resolver that is neither (the one a synchronous factory receives, or one of your own)
    /// has no async form: its resolves run synchronously, and an async factory behind one
    /// throws `requires-await`.
    public var async: AsyncResolver { AsyncResolver(resolving: self) }
}

/// Resolves services whose factories need `await`. Everything a `Resolver` resolves, it resolves
/// too; async factories receive one for their own dependencies.
///
/// ```swift
/// let database = try await container.async.resolve(Database.self)
/// container.registerAsync(Repository.self) { r in try await Repository(database: r.resolve()) }
/// ```
///
/// Reach it with `container.async`, `test.async` or, from code that takes any resolver,
/// `resolver.async`; inside an async factory, `r` is one: `try await r.resolve(…)` resolves any
/// dependency, async, main-actor or plain.
///
/// A factory's resolver resolves into the factory's own resolution, so `.graph` instances are
/// shared and cycles found, one call at a time. Calls it makes concurrently (`async let`, task
/// groups) each get a resolution of their own below the same path: cycles are still found, but
/// a `.graph` instance is shared only within each.
public struct AsyncResolver: Sendable {
    /// What a top-level async call resolves from; `nil` in a factory's resolver, which must not
    /// keep its container alive (an instance may keep the resolver).
    private let source: (any ResolutionSource)?
    private let resolution: Resolution?
    /// The turn of `resolution` this resolver's calls take; see `Resolution.takeAsyncTurn`.
    private let turn: Int
    /// The factory that got this resolver, until it returns (see ``RunningFactory``).
    let ancestors: RunningFactory?
    /// A resolver that is neither a container nor a test container (a factory's, or one of
    /// the app's own), resolved from synchronously: it has no async form of its own.
    private let synchronous: (any Resolver)?

    package init(source: any ResolutionSource) {
        self.source = source
        self.resolution = nil
        self.turn = 0
        self.ancestors = nil
        self.synchronous = nil
    }

    init(resolution: Resolution, turn: Int) {
        self.source = nil
        self.resolution = resolution
        self.turn = turn
        self.ancestors = RunningFactory(resolution, turn: turn)
        self.synchronous = nil
    }

    /// The async form of any resolver: a container's or a test container's `async`; any other
    /// resolver is resolved from synchronously.
    init(resolving resolver: any Resolver) {
        let source = resolver as? any ResolutionSource
        self.source = source
        self.resolution = nil
        self.turn = 0
        self.ancestors = nil
        self.synchronous = source == nil ? resolver : nil
    }

    /// Lets go of the factory's ancestors once it returned; see `ancestors`. Calls made later from
    /// a task the factory started continue nothing.
    func factoryReturned() {
        ancestors?.returned()
    }

    /// Resolves a service, awaiting its factory if it is async or isolated to the main actor.
    /// - Parameters:
    ///   - serviceType: The registered type; can be inferred.
    ///   - name: The registration's name, if any.
    nonisolated(nonsending)
    public func resolve<Service>(_ serviceType: Service.Type = Service.self, name: String? = nil) async throws -> Service {
        try await resolve(ServiceKey(serviceType, name: name), as: serviceType)
    }

    /// Resolves a service whose factory takes runtime arguments.
    nonisolated(nonsending)
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type = Service.self, name: String? = nil, arguments: repeat each Argument
    ) async throws -> Service {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        return try await resolve(key, as: serviceType, arguments: repeat each arguments)
    }

    /// Resolves `key`, whose argument types are those of `arguments`.
    nonisolated(nonsending)
    package func resolve<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, arguments: repeat each Argument
    ) async throws -> Service {
        if let synchronous {
            return try synchronous.resolve(serviceType, name: key.name, arguments: repeat each arguments)
        }
        let start: (source: any ResolutionSource, path: [RegistrationEntry])
        if let resolution {
            switch resolution.takeAsyncTurn(turn) {
            case .taken:
                defer { resolution.endAsyncTurn(turn) }
                return try await resolution.resolveAsync(key, as: serviceType, turn: turn, arguments: repeat each arguments)
            case .busy:
                // Another task of the same factory is resolving in it (`async let`): this call gets
                // a resolution of its own, below the same path.
                start = (resolution.sourceForConcurrentCall, ancestors?.entries ?? [])
            case .finished:
                // Kept past its factory: a new call, from the source if it still exists.
                start = (try resolution.sourceForNewCall(key), [])
            }
        } else {
            guard let source else { preconditionFailure("an async resolver has a source or a resolution") }
            // Started inside an async factory (from a container it captured), it continues that
            // factory's path while the factory runs, so a cycle through it is an error, not an
            // endless recursion. It claims as a resolution of its own, as a concurrent call of the
            // factory's resolver does: the task may be one of several the factory started.
            start = (source, AsyncResolver.runningFactory?.entries ?? [])
        }
        return try await Resolution.runAsync(
            in: start.source.makeEnvironment(), below: start.path, key, as: serviceType, arguments: repeat each arguments)
    }

    /// Runs `body` isolated to `actor`, with a synchronous resolver that continues this
    /// factory's resolution, as a main-actor factory runs on the main actor: what a test double
    /// made in an actor's isolation does when it is awaited.
    /// - Throws: What `body` throws; `requires-await` when this resolver is not a running
    ///   factory's (a synchronous resolver would have no resolution to continue).
    nonisolated(nonsending)
    package func withSynchronousResolver<Result>(
        isolatedTo actor: any Actor, _ body: @escaping @Sendable (any Resolver) throws -> Result
    ) async throws -> Result {
        guard let resolution, case .taken = resolution.takeAsyncTurn(turn) else { throw NeedsAwait(isMainActor: false) }
        defer { resolution.endAsyncTurn(turn) }
        let running = UncheckedSendable(resolution)
        return try await actor.runIsolated {
            try ResolutionThread.withAsyncResolution(running.value) { UncheckedSendable(try body(running.value.resolver)) }
        }.value
    }

    /// The async factory running in this task, if one runs: the path a top-level async call
    /// started from inside it continues, and the resolution its synchronous code continues.
    /// Tasks the factory starts inherit it; it is emptied when the factory returns
    /// (``factoryReturned()``), so a task that outlives the factory starts afresh.
    @TaskLocal static var runningFactory: RunningFactory?
}

/// An async factory, while it runs: the registrations being resolved when it started, and its
/// resolution, which its synchronous code (an object it makes, resolving its `@Injected`
/// properties) continues in the turn its resolver's calls take, as a synchronous factory's does.
final class RunningFactory: Sendable {
    private let running: LockedState<(entries: [RegistrationEntry], resolution: Resolution?)>
    /// The turn of the resolution the factory's calls take; see `Resolution.takeAsyncTurn`.
    let turn: Int

    init(_ resolution: Resolution, turn: Int) {
        running = LockedState((resolution.pathEntries, resolution))
        self.turn = turn
    }

    var entries: [RegistrationEntry] { running.withLock { $0.entries } }

    /// The factory's resolution; `nil` once it returned.
    var resolution: Resolution? { running.withLock { $0.resolution } }

    /// Lets go of what the factory ran in: an instance may keep its resolver, and holding the
    /// resolution or its entries would keep their instances alive after the container.
    func returned() {
        running.withLock { $0 = ([], nil) }
    }
}

/// What a synchronous resolve throws when it meets a factory that must be awaited.
struct NeedsAwait: Error {
    let isMainActor: Bool
}

extension Actor {
    /// Runs `body` isolated to this actor.
    fileprivate func runIsolated<Result: Sendable>(_ body: @Sendable () throws -> Result) rethrows -> Result {
        try body()
    }
}
