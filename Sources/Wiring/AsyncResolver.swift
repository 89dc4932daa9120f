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
    /// The resolution of the factory that got this resolver: what a call made after the factory
    /// returned resolves from (its source, if it still exists).
    private let resolution: Resolution?
    /// That factory, whose calls take turns in its resolution while it runs (see ``RunningFactory``).
    let factory: RunningFactory?
    /// A resolver that is neither a container nor a test container (a factory's, or one of
    /// the app's own), resolved from synchronously: it has no async form of its own.
    private let synchronous: (any Resolver)?

    package init(source: any ResolutionSource) {
        self.source = source
        self.resolution = nil
        self.factory = nil
        self.synchronous = nil
    }

    /// The resolver of `factory`, which `resolution` awaits.
    init(resolution: Resolution, factory: RunningFactory) {
        self.source = nil
        self.resolution = resolution
        self.factory = factory
        self.synchronous = nil
    }

    /// The async form of any resolver: a container's or a test container's `async`; any other
    /// resolver is resolved from synchronously.
    init(resolving resolver: any Resolver) {
        let source = resolver as? any ResolutionSource
        self.source = source
        self.resolution = nil
        self.factory = nil
        self.synchronous = source == nil ? resolver : nil
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
        if let resolution, let factory {
            switch factory.takeTurn() {
            case .taken(let running):
                defer { factory.endTurn(of: running) }
                return try await running.resolveAsync(
                    key, as: serviceType, turn: factory.turn, arguments: repeat each arguments)
            case .busy(let running):
                // From another task of the factory (`async let`, `Task {}`), or beside another of
                // its calls: a resolution of its own, below the same path, unless the step that
                // awaited the factory has finished since.
                if let source = running.sourceForConcurrentCall {
                    start = (source, factory.entries)
                } else {
                    start = (try resolution.sourceForNewCall(key), [])
                }
            case .returned:
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
        guard let factory, case .taken(let resolution) = factory.takeTurn() else { throw NeedsAwait(isMainActor: false) }
        defer { factory.endTurn(of: resolution) }
        let running = UncheckedSendable(resolution)
        return try await actor.runIsolated {
            try ResolutionThread.withAsyncResolution(running.value) { UncheckedSendable(try body(running.value.resolver)) }
        }.value
    }

    /// The async factory running in this task, if one runs: the path a top-level async call
    /// started from inside it continues, and the resolution its synchronous code continues.
    /// Tasks the factory starts inherit it; it is emptied when the factory returns
    /// (``RunningFactory/returned()``), so a task that outlives the factory starts afresh.
    @TaskLocal static var runningFactory: RunningFactory?
}

/// An async factory, while it runs: the registrations being resolved when it started, and its
/// resolution, which the factory's own task continues in the turn its calls take: its resolver's
/// calls, and its synchronous code's (an object it makes, resolving its `@Injected` properties),
/// as a synchronous factory's do. The tasks it starts (`async let`, groups, `Task {}`) share its
/// task-locals but not its resolution: their calls are calls of their own below the same path,
/// and a new call once it returned, so that nothing but the factory's task is in the resolution
/// when the step that awaited it goes on.
final class RunningFactory: Sendable {
    private let running: LockedState<(entries: [RegistrationEntry], resolution: Resolution?)>
    /// The turn of the resolution the factory's calls take; see `Resolution.takeAsyncTurn`.
    let turn: Int
    /// The task the factory runs in, while it runs (see ``run(_:)``).
    private let task = TaskMark()

    init(_ resolution: Resolution, turn: Int) {
        running = LockedState((resolution.pathEntries, resolution))
        self.turn = turn
    }

    /// Runs the factory, `body`, in this task, which its calls take the turn from.
    nonisolated(nonsending)
    func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await task.marking(body)
    }

    /// What a call of the factory's code finds.
    enum Turn {
        /// It took the turn in the factory's resolution, and gives it back with ``endTurn(of:)``.
        case taken(Resolution)
        /// It comes from another task than the factory's, or another call has the turn.
        case busy(Resolution)
        /// The factory returned.
        case returned
    }

    /// The registrations being resolved when the factory started; none once it returned.
    var entries: [RegistrationEntry] { running.withLock { $0.entries } }

    /// The factory's resolution; `nil` once it returned.
    var resolution: Resolution? { running.withLock { $0.resolution } }

    /// Takes the factory's turn, if the factory still runs, this is its task, and no other call
    /// of it has the turn.
    func takeTurn() -> Turn {
        guard let resolution else { return .returned }
        guard task.isCurrentTask else { return .busy(resolution) }
        switch resolution.takeAsyncTurn(turn) {
        case .taken: return .taken(resolution)
        case .busy: return .busy(resolution)
        case .finished: return .returned
        }
    }

    /// Gives back the turn ``takeTurn()`` gave.
    func endTurn(of resolution: Resolution) {
        resolution.endAsyncTurn(turn)
    }

    /// The factory returned, in its task, which no call of it holds the turn in any more: from
    /// now on a call is a new one, and what it ran in is let go (an instance may keep its
    /// resolver, and holding the resolution or its entries would keep their instances alive
    /// after the container).
    func returned() {
        running.withLock { running in
            running.entries = []
            running.resolution = nil
        }
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
