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
    /// Runs an asynchronous top-level call from `source`, the one way every async call starts:
    /// in a resolution of its own, which continues `path` (the registrations being resolved
    /// where the call was made, top first). A call that backs off (see `Creations`) waits for
    /// the instance it waited for and starts again, in a new resolution, as a synchronous call
    /// does (`runAgain`).
    nonisolated(nonsending)
    static func runAsync<Service, each Argument>(
        in environment: ResolutionEnvironment, below path: [RegistrationEntry],
        _ key: ServiceKey, as serviceType: Service.Type, arguments: repeat each Argument
    ) async throws -> Service {
        var attempts = 0
        while true {
            var resolution = Resolution(asyncIn: environment)
            resolution.continuePath(path)
            _ = resolution.takeAsyncTurn(0)
            let backedOff: Creations.WaitCycle
            do {
                // Finished before waiting: a call that backed off holds nothing while it waits.
                defer { finish(&resolution) }
                do {
                    return try await resolution.resolveAsync(key, as: serviceType, turn: 0, arguments: repeat each arguments)
                } catch {
                    guard let cycle = resolution.state.backedOff, attempts < 100 else { throw error }
                    backedOff = cycle
                }
            }
            attempts += 1
            await Creations.waitUntilFreeAsync(backedOff.key)
        }
    }

    /// Resolves in turn `turn`, which the caller took.
    nonisolated(nonsending)
    func resolveAsync<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, turn: Int, arguments: repeat each Argument
    ) async throws -> Service {
        guard var found = lookup(key, as: serviceType) else {
            throw notRegistered(key)
        }
        let factory: @Sendable (AsyncResolver, UncheckedSendable<Any>) async throws -> Service
        switch Self.isolatedFactory(of: found.entry, as: serviceType) {
        case .async(let awaited), .awaiting(let awaited):
            factory = awaited
        case .mainActor:
            // Made by the synchronous step on the main actor, which claims the instance only
            // there: claimed here and then made there, a synchronous resolve already running on
            // the main actor would wait for the claim while the claim waited for the main actor.
            return try await resolveOnMainActor(key, as: serviceType, found: found, arguments: repeat each arguments)
        case nil:
            // A synchronous factory: the whole resolution below runs on this thread.
            do {
                return try ResolutionThread.withAsyncResolution(self) {
                    try resolvePassing(key, as: serviceType, found: found, arguments: repeat each arguments)
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
            return try await resolveIsolated(factory, found, key, turn: turn, arguments: passed).instance
        }
        let observed = ObservedStep(found, by: observer, path: path)
        do {
            let (instance, outcome) = try await resolveIsolated(factory, found, key, turn: turn, arguments: passed)
            return observed.gave(instance, outcome)
        } catch {
            throw observed.failed(error)
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
                try resolution.resolvePassing(key, as: serviceType, found: found, arguments: repeat each arguments)
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
        _ factory: @escaping @Sendable (AsyncResolver, UncheckedSendable<Any>) async throws -> Service,
        _ found: Lookup, _ key: ServiceKey, turn: Int,
        arguments: UncheckedSendable<Any>
    ) async throws -> (instance: Service, outcome: ResolutionOutcome) {
        let entry = found.entry
        let cache = found.cache
        if let existing = existingInstance(of: entry, in: cache) { return (try value(existing, of: entry, as: Service.self), state.outcome) }
        try enter(entry)
        defer { leave(entry) }
        var claim = ClaimTurn.make(claimed: false)
        if entry.policy.keepsInstances {
            do {
                claim = try claimTurn(entry, in: cache, afterWait: false)
                while case .wait(let wait) = claim {
                    await Creations.waitAsync(wait)
                    claim = try claimTurn(entry, in: cache, afterWait: true)
                }
            } catch let cycle as Creations.WaitCycle {
                // An async call does not start again: it reports the cycle between the tasks.
                throw cycle.error
            }
        }
        if let published = claim.published { return (try value(.kept(published), of: entry, as: Service.self), .cached) }
        defer { if claim.holdsClaim { Creations.finish(entry, in: cache.creationStore) } }
        let keptIn = entry.policy.keepsInstances ? cache : nil
        let instance = try await makeAwaited(factory, entry, key, turn: turn, arguments: arguments) { made in
            try self.keep(made, of: entry, in: keptIn)
        }
        return (instance, state.outcome)
    }

    /// Awaits `factory`, its errors named as the synchronous step names them, then `keep`s what
    /// it made (publishing it, running its hooks) with this resolution as the thread's, so that
    /// the hooks' resolves continue it.
    nonisolated(nonsending)
    private func makeAwaited<Service>(
        _ factory: @Sendable (AsyncResolver, UncheckedSendable<Any>) async throws -> Service,
        _ entry: RegistrationEntry, _ key: ServiceKey, turn: Int,
        arguments: UncheckedSendable<Any>, keep: (Service) throws -> Service
    ) async throws -> Service {
        let made: Service
        // The factory's calls take the next turn, while this call waits for it.
        let running = RunningFactory(self, turn: turn + 1)
        let resolver = AsyncResolver(resolution: self, factory: running)
        do {
            made = try await AsyncResolver.$runningFactory.withValue(running) {
                try await running.run { try await factory(resolver, arguments) }
            }
        } catch {
            running.returned()
            throw resolutionError(error, entry, key)
        }
        running.returned()
        return try ResolutionThread.withAsyncResolution(self) { try keep(made) }
    }
}
