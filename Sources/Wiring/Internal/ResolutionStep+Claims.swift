/// The step of a lifetime whose store keeps its instance: the claim that makes it once, the
/// blocking loop that waits for another resolution's claim, the hook gate and backing off from
/// a wait that would never end (see `Creations`). The async step drives the same claim turn
/// with an awaiting loop (`ResolutionStep+Async.swift`).
extension Resolution {
    /// The step of a lifetime whose store keeps its instance.
    @inline(never)
    func resolveKept<Service>(
        _ entry: RegistrationEntry, in cache: any InstanceCache, as serviceType: Service.Type
    ) throws -> Service {
        if let existing = existingInstance(of: entry, in: cache) { return try value(existing, of: entry, as: serviceType) }
        return try makeKept(entry, in: cache, as: serviceType)
    }

    /// Makes the instance of a lifetime whose store keeps it, once this resolution holds the
    /// claim to make it (see `Creations`): others wait for it, or find it made.
    private func makeKept<Service>(
        _ entry: RegistrationEntry, in cache: any InstanceCache, as serviceType: Service.Type
    ) throws -> Service {
        try enter(entry)
        defer { state.steps.pop(entry) }
        // Before claiming: a synchronous resolve must never wait for an instance an async one
        // is making, which may need this very thread (the main actor's) to finish.
        if _slowPath(entry.needsAwait), let needsAwait = entry.synchronousResolveError {
            throw resolutionError(needsAwait, entry, entry.key)
        }
        // One at a time when it has hooks (see `Creations`), before its own claim.
        let holdsHookGate = entry.hasHooks ? try takeHookGate(for: entry) : false
        defer { if holdsHookGate { Creations.finishHookGate() } }
        var claim: ClaimTurn
        do {
            claim = try claimTurn(entry, in: cache, afterWait: false)
            while case .wait(let wait) = claim {
                Creations.wait(wait)
                claim = try claimTurn(entry, in: cache, afterWait: true)
            }
        } catch let cycle as Creations.WaitCycle {
            throw backOff(cycle)
        }
        if let published = claim.published {
            state.outcome = .cached
            return try value(.kept(published), of: entry, as: serviceType)
        }
        defer { if claim.holdsClaim { Creations.finish(entry, in: cache.creationStore) } }
        return try keep(produce(entry, as: serviceType), of: entry, in: cache)
    }

    /// What a step of a stored lifetime does after one look at the claims (see `Creations`).
    enum ClaimTurn {
        /// Make the instance: the step holds the claim (`claimed`, given back with
        /// `Creations.finish`), or its own resolution makes it further up.
        case make(claimed: Bool)
        /// Another resolution published it while this one was not yet holding the claim.
        case found(AnyObject)
        /// Another resolution is making it: wait, blocking or suspended, then take the next turn.
        case wait(Creations.Wait)

        /// The instance another resolution published, if this turn found one.
        var published: AnyObject? {
            if case .found(let published) = self { published } else { nil }
        }

        /// Whether the step holds the claim, given back with `Creations.finish` once the step
        /// has kept what it made (or failed to make it).
        var holdsClaim: Bool {
            if case .make(claimed: true) = self { true } else { false }
        }
    }

    /// One turn of the claim loop every stored lifetime's step runs, synchronous or not; the
    /// two differ only in how they wait between turns. The instance may have been published
    /// between this resolution's first look in the store and its claim (the claim is then given
    /// back), or while it waited (`afterWait`).
    /// - Throws: `Creations.WaitCycle` when waiting would never end.
    func claimTurn(_ entry: RegistrationEntry, in cache: any InstanceCache, afterWait: Bool) throws -> ClaimTurn {
        if afterWait, let published = keptObject(in: cache, for: entry) { return .found(published) }
        switch try Creations.attempt(entry, in: cache.creationStore, by: owner, path: path) {
        case .alreadyMine:
            return .make(claimed: false)
        case .busy(let wait):
            return .wait(wait)
        case .claimed:
            guard let published = keptObject(in: cache, for: entry) else { return .make(claimed: true) }
            Creations.finish(entry, in: cache.creationStore)
            return .found(published)
        }
    }

    /// Waits for the hook gate (see `Creations`) and takes it, unless this resolution holds it
    /// already; returns whether it took it (and gives it back).
    private func takeHookGate(for entry: RegistrationEntry) throws -> Bool {
        do {
            var gate = try Creations.attemptHookGate(for: entry, by: owner, path: path)
            while case .busy(let wait) = gate {
                Creations.wait(wait)
                gate = try Creations.attemptHookGate(for: entry, by: owner, path: path)
            }
            if case .claimed = gate { return true }
            return false
        } catch let cycle as Creations.WaitCycle {
            throw backOff(cycle)
        }
    }

    /// Remembers that this resolution backs off (see `Creations`), and gives the error to throw.
    func backOff(_ cycle: Creations.WaitCycle) -> ResolutionError {
        if state.backedOff == nil { state.backedOff = cycle }
        return cycle.error
    }
}
