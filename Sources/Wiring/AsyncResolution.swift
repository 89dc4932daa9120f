extension Container {
    /// Registers a factory that needs `await`, such as a service that connects before it is usable.
    /// Resolve it with `try await container.async.resolve(…)` or from another async factory.
    ///
    /// ```swift
    /// container.registerAsync(Database.self) { r in
    ///     try await Database.connect(to: r.resolve(DatabaseURL.self))
    /// }
    /// .scope(.container)
    /// let database = try await container.async.resolve(Database.self)
    /// ```
    ///
    /// Scopes, paths and errors work as for synchronous factories; a `.container` instance is
    /// made once even when many tasks ask for it at the same time. Inside the factory, `r` is an
    /// ``AsyncResolver``: `try await r.resolve(…)` resolves any dependency, async or not.
    @discardableResult
    public func registerAsync<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver) async throws -> Service
    ) -> Registration<Service> {
        add(
            FactoryEntry(
                key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line),
                options: .init(scope: defaultScope), isolatedFactory: .async { resolver, _ in try await factory(resolver) }
            ) { _ in throw NeedsAwait(isMainActor: false) })
    }

    /// Registers an async factory that takes runtime arguments, which
    /// `container.async.resolve(_:arguments:)` passes; spelled like `register`'s.
    ///
    /// ```swift
    /// container.registerAsync(RequestHandler.self) { (r, requestID: String, userID: Int) in
    ///     try await RequestHandler(id: requestID, user: userID, repository: r.resolve())
    /// }
    /// let handler = try await container.async.resolve(RequestHandler.self, arguments: "r-1", 42)
    /// ```
    ///
    /// Its scope is `.transient`; a kept scope keeps one instance per distinct arguments when
    /// their types are all `Hashable`.
    @discardableResult
    public func registerAsync<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        let isolated = IsolatedFactory<Service>.async { resolver, tuple in
            try await factory(resolver, repeat each tuple.read(as: (repeat each Argument).self))
        }
        guard key.takesArguments else {
            return add(
                FactoryEntry(
                    key: key, site: RegistrationSite(file, line), options: .init(scope: defaultScope),
                    isolatedFactory: isolated
                ) { _ in throw NeedsAwait(isMainActor: false) })
        }
        return add(
            ArgumentFactoryEntry(
                key: key, site: RegistrationSite(file, line), options: .init(scope: .transient),
                arguments: ArgumentAccess((repeat each Argument).self), isolatedFactory: isolated
            ) { _, _ in throw NeedsAwait(isMainActor: false) })
    }

    /// Registers a factory isolated to the main actor, for view models and other main-actor types.
    ///
    /// Main-actor code resolves it synchronously, as usual; code elsewhere uses
    /// `try await container.async.resolve(…)`, which runs the factory on the main actor. A
    /// synchronous resolve off the main thread throws a `ResolutionError` saying so.
    ///
    /// ```swift
    /// container.registerMainActor(CheckoutViewModel.self) { r in
    ///     try CheckoutViewModel(cart: r.resolve())
    /// }
    /// ```
    @discardableResult
    public func registerMainActor<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        add(
            FactoryEntry(
                key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line),
                options: .init(scope: defaultScope), isolatedFactory: .mainActor { resolver, _ in try factory(resolver) }
            ) { resolver in
                try Self.onMainActor { try factory(resolver) }
            })
    }

    /// Registers a main-actor factory that takes runtime arguments, spelled like `register`'s:
    /// resolved with `resolve(_:arguments:)` on the main actor, and with
    /// `container.async.resolve(_:arguments:)` from anywhere (which hops to the main actor).
    ///
    /// ```swift
    /// container.registerMainActor(ProductViewModel.self) { (r, id: String, page: Int?) in
    ///     try ProductViewModel(id: id, page: page, catalog: r.resolve())
    /// }
    /// let viewModel = try container.resolve(ProductViewModel.self, arguments: "p-1", Int?.none)
    /// ```
    ///
    /// Its scope is `.transient`; a kept scope keeps one instance per distinct arguments when
    /// their types are all `Hashable`.
    @discardableResult
    public func registerMainActor<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        let isolated = IsolatedFactory<Service>.mainActor { resolver, tuple in
            try factory(resolver, repeat each tuple.read(as: (repeat each Argument).self))
        }
        guard key.takesArguments else {
            return add(
                FactoryEntry(
                    key: key, site: RegistrationSite(file, line), options: .init(scope: defaultScope),
                    isolatedFactory: isolated
                ) { resolver in
                    try Self.onMainActor { try factory(resolver, repeat each UncheckedSendable<Any>(()).read(as: (repeat each Argument).self)) }
                })
        }
        return add(
            ArgumentFactoryEntry(
                key: key, site: RegistrationSite(file, line), options: .init(scope: .transient),
                arguments: ArgumentAccess((repeat each Argument).self), isolatedFactory: isolated
            ) { resolver, arguments in
                let values = UncheckedSendable(arguments.read(as: (repeat each Argument).self))
                return try Self.onMainActor { try factory(resolver, repeat each values.value) }
            })
    }

    /// Runs a main-actor factory from a synchronous resolve, which must be on the main actor.
    private static func onMainActor<Service>(_ factory: @MainActor () throws -> Service) throws -> Service {
        guard MainQueue.isCurrent else { throw NeedsAwait(isMainActor: true) }
        return try MainActor.assumeIsolated { UncheckedSendable(try factory()) }.value
    }

    /// Resolves with `await`, for async and main-actor factories:
    /// `try await container.async.resolve(Database.self)`.
    public var async: AsyncResolver { AsyncResolver(source: self) }
}

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
    /// The registrations being resolved when the factory got this resolver, top first, until
    /// the factory returns: an instance may keep its resolver, and the entries keep their
    /// instances, so holding them longer would keep the instance alive after its container.
    private let ancestors: FactoryAncestors?
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
        self.ancestors = FactoryAncestors(resolution.pathEntries)
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

    /// Lets go of the factory's ancestors once it returned; see `ancestors`.
    func factoryReturned() {
        ancestors?.entries.withLock { $0 = [] }
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
        if let resolution {
            switch resolution.takeAsyncTurn(turn) {
            case .taken:
                defer { resolution.endAsyncTurn(turn) }
                return try await resolution.resolveAsync(key, as: serviceType, turn: turn, arguments: repeat each arguments)
            case .busy:
                // Another task of the same factory is resolving in it (`async let`): this call gets
                // a resolution of its own, below the same path.
                var concurrent = Resolution(source: resolution.source)
                concurrent.continuePath(ancestors?.entries.withLock { $0 } ?? [])
                defer { Resolution.finish(&concurrent) }
                return try await concurrent.resolveFirstAsync(key, as: serviceType, arguments: repeat each arguments)
            case .finished:
                // Kept past its factory: a new call, from the source if it still exists.
                let source = try resolution.sourceForNewCall(key)
                var fresh = Resolution(source: source)
                defer { Resolution.finish(&fresh) }
                return try await fresh.resolveFirstAsync(key, as: serviceType, arguments: repeat each arguments)
            }
        }
        guard let source else { preconditionFailure("an async resolver has a source or a resolution") }
        var resolution = Resolution(source: source)
        if let running = AsyncResolver.runningFactory {
            // Started inside an async factory (from a container it captured): it continues that
            // factory's path, so a cycle through it is an error, not an endless recursion.
            resolution.continuePath(running.path)
            resolution.enclosingOwner = running.owner
        }
        defer { Resolution.finish(&resolution) }
        return try await resolution.resolveFirstAsync(key, as: serviceType, arguments: repeat each arguments)
    }

    /// The async factory running in this task, if any: what a top-level async call started from
    /// inside it continues.
    @TaskLocal static var runningFactory: RunningFactory?

    /// An async factory's place in its resolution.
    struct RunningFactory: Sendable {
        /// The registrations being resolved when it started, top first.
        let path: [RegistrationEntry]
        /// Who claims kept instances for its resolution.
        let owner: ObjectIdentifier
    }
}

/// The registrations being resolved when an async factory started, while it runs.
final class FactoryAncestors: Sendable {
    let entries: LockedState<[RegistrationEntry]>

    init(_ entries: [RegistrationEntry]) {
        self.entries = LockedState(entries)
    }
}

/// What a synchronous resolve throws when it meets a factory that must be awaited.
struct NeedsAwait: Error {
    let isMainActor: Bool
}

/// Where a factory that a synchronous resolve cannot always run must run.
package enum FactoryIsolation: Sendable, Equatable {
    /// With `await`: only an async resolve runs it.
    case async
    /// On the main actor: a synchronous resolve there runs it, an async one hops there.
    case mainActor
}

/// A factory that cannot run inside a synchronous resolve on any thread. It receives the
/// runtime arguments as one tuple of their types (`()` for none).
package enum IsolatedFactory<Service>: Sendable {
    /// A registered async factory.
    case async(@Sendable (AsyncResolver, UncheckedSendable<Any>) async throws -> Service)
    /// A registered main-actor factory.
    case mainActor(@MainActor @Sendable (any Resolver, UncheckedSendable<Any>) throws -> Service)
    /// Awaits another registration that may need it (what `implements` and `T?` forward to):
    /// awaited like an async factory, though it runs nothing of the app's own.
    case awaiting(@Sendable (AsyncResolver, UncheckedSendable<Any>) async throws -> Service)

    var isolation: FactoryIsolation {
        switch self {
        case .async, .awaiting: .async
        case .mainActor: .mainActor
        }
    }

    /// Where the app's factory runs, for traces and explanations; `nil` when it only forwards.
    var factoryIsolation: FactoryIsolation? {
        switch self {
        case .async: .async
        case .mainActor: .mainActor
        case .awaiting: nil
        }
    }
}

extension Resolution {
    /// The first call of a new resolution, which takes its first turn.
    nonisolated(nonsending)
    func resolveFirstAsync<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, arguments: repeat each Argument
    ) async throws -> Service {
        _ = takeAsyncTurn(0)
        return try await resolveAsync(key, as: serviceType, turn: 0, arguments: repeat each arguments)
    }

    /// Resolves in turn `turn`, which the caller took.
    nonisolated(nonsending)
    func resolveAsync<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, turn: Int, arguments: repeat each Argument
    ) async throws -> Service {
        guard var found = lookup(key, as: serviceType) else {
            throw notRegistered(key)
        }
        guard let isolated = Self.isolatedFactory(of: found.entry, as: serviceType) else {
            // A synchronous factory: the whole resolution below runs on this thread.
            do {
                return try ResolutionThread.withAsyncResolution(self) {
                    try resolve(key, as: serviceType, found: found, arguments: repeat each arguments)
                }
            } catch let error as ResolutionError where error.isMainActorRequired && !MainQueue.isCurrent {
                // A plain factory that resolves a main-actor one synchronously: run it where that
                // one can run, as an async resolve promises from anywhere.
                return try await resolveOnMainActor(key, as: serviceType, found: found, arguments: repeat each arguments)
            }
        }
        var tuple = (repeat each arguments)
        if key.takesArguments {
            let variant = UnsafeArguments.with(&tuple) { found.entry.variant(for: $0) }
            found = Lookup(entry: variant, cache: found.cache, origin: found.origin)
        }
        let passed = UncheckedSendable<Any>(tuple)
        guard let observer else {
            return try await resolveIsolated(isolated, found, key, turn: turn, arguments: passed).instance
        }
        observer.willResolve(Found(found), path: path)
        do {
            let (instance, outcome) = try await resolveIsolated(isolated, found, key, turn: turn, arguments: passed)
            observer.didResolve(instance, outcome: outcome)
            return instance
        } catch {
            observer.didFail(key, error: error)
            throw error
        }
    }

    /// Resolves `key` synchronously on the main actor, this resolution lent to it while this
    /// call waits.
    nonisolated(nonsending)
    private func resolveOnMainActor<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup, arguments: repeat each Argument
    ) async throws -> Service {
        let call = UncheckedSendable((resolution: self, found: found, arguments: (repeat each arguments)))
        return try await MainActor.run {
            let (resolution, found, arguments) = call.value
            return UncheckedSendable(try ResolutionThread.withAsyncResolution(resolution) {
                try resolution.resolve(key, as: serviceType, found: found, arguments: repeat each arguments)
            })
        }.value
    }

    /// The factory of `entry` if it must be awaited.
    private static func isolatedFactory<Service>(
        of entry: RegistrationEntry, as serviceType: Service.Type
    ) -> IsolatedFactory<Service>? {
        guard entry.needsAwait else { return nil }
        return (entry as? FactoryEntry<Service>)?.isolatedFactory
            ?? (entry as? ArgumentFactoryEntry<Service>)?.isolatedFactory
    }

    /// Resolves a registration whose factory must be awaited, saying how it got the instance:
    /// the synchronous step's order and scope rules (`existingInstance`, `keep`), with the
    /// factory and the wait for another task's claim awaited.
    nonisolated(nonsending)
    private func resolveIsolated<Service>(
        _ isolated: IsolatedFactory<Service>, _ found: Lookup, _ key: ServiceKey, turn: Int,
        arguments: UncheckedSendable<Any>
    ) async throws -> (instance: Service, outcome: ResolutionOutcome) {
        let entry = found.entry
        let cache = found.cache
        if let instance = try existingInstance(of: entry, in: cache, as: Service.self) { return (instance, outcome) }
        try enter(entry)
        defer { leave(entry) }
        var claim = Creations.Claim.claimed
        if entry.policy.keepsInstances {
            repeat {
                do {
                    claim = try await Creations.claimAsync(entry, in: cache.creationStore, by: owner, path: path)
                } catch let cycle as Creations.WaitCycle {
                    // An async call does not start again: it reports the cycle between the tasks.
                    throw cycle.error
                }
                if let instance = try instance(publishedBefore: claim, of: entry, in: cache, as: Service.self) {
                    return (instance, .cached)
                }
            } while claim == .waited
        }
        defer {
            if entry.policy.keepsInstances, claim == .claimed { Creations.finish(entry, in: cache.creationStore) }
        }
        let made = try await makeIsolated(isolated, entry, key, turn: turn, arguments: arguments)
        // The hooks run with this resolution as the thread's, so that their resolves continue it.
        let instance = try ResolutionThread.withAsyncResolution(self) {
            try keep(made, of: entry, in: entry.policy.keepsInstances ? cache : nil)
        }
        return (instance, outcome)
    }

    /// Runs a factory that must be awaited, its errors named as the synchronous step names them.
    nonisolated(nonsending)
    private func makeIsolated<Service>(
        _ isolated: IsolatedFactory<Service>, _ entry: RegistrationEntry, _ key: ServiceKey, turn: Int,
        arguments: UncheckedSendable<Any>
    ) async throws -> Service {
        do {
            switch isolated {
            case .async(let factory), .awaiting(let factory):
                // The factory's calls take the next turn, while this call waits for it.
                let running = AsyncResolver.RunningFactory(path: pathEntries, owner: owner)
                let resolver = AsyncResolver(resolution: self, turn: turn + 1)
                defer { resolver.factoryReturned() }
                return try await AsyncResolver.$runningFactory.withValue(running) {
                    try await factory(resolver, arguments)
                }
            case .mainActor(let factory):
                let resolution = UncheckedSendable(self)
                return try await MainActor.run {
                    try ResolutionThread.withAsyncResolution(resolution.value) {
                        UncheckedSendable(try factory(resolution.value.resolver, arguments))
                    }
                }.value
            }
        } catch {
            throw resolutionError(error, entry, key)
        }
    }
}
