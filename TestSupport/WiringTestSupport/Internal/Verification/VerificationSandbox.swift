import Wiring

/// Where `verifyWiring()` builds things: it finds registrations as the test container does,
/// but keeps every instance of a stored scope itself, so that none reaches the test container
/// or the base, and follows each resolution with a ``VerificationObserver`` instead of the
/// trace recorder, so that nothing is recorded or counted. Dropping its instances drops
/// everything it made.
///
/// Most factories run once: the sandbox keeps what a `.graph` or `.transient` registration
/// made like a singleton, so checking a registration reuses what checking the ones below it
/// built instead of building its whole graph again (which made checking a deep graph of a
/// thousand registrations take seconds). Likewise a registration that failed is answered with
/// its error from then on, so whatever needs it fails at once.
final class VerificationSandbox: ResolutionSource {
    private let test: TestContainer
    /// Every registration the test container sees, as registered, in registration order, taken
    /// once: its own lookup walks its layers on every call, which costs more than the rest of a step.
    private let registrations: [RegistrationEntry]
    private let positions: [ServiceKey: Int]
    /// The entry the sandbox resolves for each registration, by position: a copy kept like a
    /// singleton, one replaying the error it failed with, or the registration itself.
    private let built: LockedState<ContiguousArray<RegistrationEntry>>
    /// The fakes the check began with, as the test container's lookup in this task sees them
    /// (a layer's own over the container's).
    private let fakes: Registry
    /// Whether a service coming from a fake is a problem.
    let reportsFakes: Bool
    private let instances = InstanceStore()
    /// The registrations whose instances the current check made inside a step with
    /// `initCompleted` hooks, by id: dropped when the check ends.
    private let madeUnderHooks = LockedState<Set<Int>>([])
    private let findings = LockedState<[WiringProblem]>([])
    /// The registrations taking runtime arguments that a check built as a dependency, with the
    /// arguments their dependent passed: checked, though no sample was given for them.
    private let builtWithArguments = LockedState<Set<ServiceKey>>([])
    /// How long the instances of forwarding registrations (as `implements` makes) really live,
    /// by origin: a kept one no longer shows the instance it forwards.
    private let forwardedScopes = LockedState<[Int: Scope]>([:])
    /// What the instances of registrations that keep nothing themselves hold, by origin (see
    /// ``noteHeld(origin:_:)``).
    private let heldThrough = LockedState<[Int: [VerificationObserver.Held]]>([:])
    /// What the manifest needs to know of the checks so far: noted only for it (`nil`
    /// otherwise), so a plain `verifyWiring()` pays nothing for it.
    private let notes: LockedState<Notes>?

    /// What the checks so far showed of the graph.
    struct Notes {
        /// What each key resolved directly, or asked for and found nothing registered.
        var dependencies: [ServiceKey: Set<ServiceKey>] = [:]
        /// The keys a step of which failed.
        var failed: Set<ServiceKey> = []
    }

    /// The origin the sandbox gives a lookup that found a fake. It numbers its own registrations
    /// from 1 (their position plus one) and anything else, such as an implicit registration, 0.
    static let fakeOrigin = -1

    /// - Parameters:
    ///   - test: The test container whose registrations to build.
    ///   - registrations: What it sees, from `visibleRegistrations`, in the order to check them.
    ///   - notesGraph: Whether to note what each key resolves directly and which fail, for ``notedGraph``.
    init(test: TestContainer, registrations: [Lookup], notesGraph: Bool = false) {
        self.test = test
        self.registrations = registrations.map(\.entry)
        let (fakes, strict) = test.layers.activeFakes
        self.fakes = fakes
        self.built = LockedState(ContiguousArray(registrations.map { found in
            // A live-only registration never runs here: a fake answers it, or nothing does.
            guard found.entry.options.isLiveOnly else { return Self.builtOnce(found.entry) }
            return fakes[found.entry.key] ?? Refusal.liveOnly(found.entry)
        }))
        self.positions = Dictionary(
            registrations.enumerated().map { ($1.entry.key, $0) }, uniquingKeysWith: { _, last in last })
        self.reportsFakes = strict
        self.notes = notesGraph ? LockedState(Notes()) : nil
    }

    /// The entry to resolve for `entry`: a copy in a stored scope, so its instance is made once,
    /// where that cannot hide a problem. A `.weak` registration keeps its scope (it must make a
    /// class instance), and so does one with `initCompleted` hooks: they run on every build, and
    /// one that resolves something pointing back is a cycle from that end. A registration taking
    /// arguments makes a new instance for every set of them.
    private static func builtOnce(_ entry: RegistrationEntry) -> RegistrationEntry {
        guard !entry.key.takesArguments, !entry.needsAwait, !entry.hasHooks, !entry.policy.keepsInstances else {
            return entry
        }
        var options = entry.options
        options.scope = Scope(name: entry.scope.name, lifetime: .custom)
        return entry.copy(options: options)
    }

    /// Builds one registration in a resolution of its own: with its sample arguments when
    /// given, else as `resolve` would. Its factory runs even if the sandbox keeps an instance
    /// from building something else: one made inside another's `initCompleted` hook may have
    /// used that one, half made, where resolving it alone meets a cycle.
    /// - Parameters:
    ///   - key: The key of the registration to build, one the sandbox was made with.
    ///   - sample: Resolves it with sample arguments through a resolver, for registrations taking them.
    /// - Returns: The error the resolution ended with, if any, and the problems noticed on the way.
    func build(_ key: ServiceKey, sample: VerificationSamples.Sample?) -> (error: (any Error)?, noticed: [WiringProblem]) {
        beginCheck(of: key)
        var failure: (any Error)?
        do {
            if let sample {
                try sample(self)
            } else if let found = lookup(key, in: nil) {
                _ = try resolveErased(found)
            }
        } catch {
            failure = error
        }
        let injected = takeLiveOnlyInjection()
        return (failure ?? injected, endCheck())
    }

    /// Builds one registration as ``build(_:sample:)`` does, with `await`: as
    /// `container.async.resolve` would, so that async and main-actor factories run. Runs in the
    /// caller's isolation, as that call does: a synchronous factory on the way runs there.
    nonisolated(nonsending)
    func buildAwaiting(
        _ key: ServiceKey, sample: VerificationSamples.AsyncSample?
    ) async -> (error: (any Error)?, noticed: [WiringProblem]) {
        beginCheck(of: key)
        var failure: (any Error)?
        do {
            if let sample {
                try await sample(AsyncResolver(source: self))
            } else if let found = lookup(key, in: nil) {
                _ = try await found.entry.resolveErasedAsync(from: self)
            }
        } catch {
            failure = error
        }
        let injected = takeLiveOnlyInjection()
        return (failure ?? injected, endCheck())
    }

    /// Notes that a step built `key`, a registration taking runtime arguments.
    func noteBuiltWithArguments(_ key: ServiceKey) {
        builtWithArguments.withLock { _ = $0.insert(key) }
    }

    /// Whether a check built `key`, a registration taking runtime arguments, as a dependency.
    func wasBuiltWithArguments(_ key: ServiceKey) -> Bool {
        builtWithArguments.withLock { $0.contains(key) }
    }

    /// Drops what the sandbox keeps for `key`, so that checking it runs its factory.
    private func beginCheck(of key: ServiceKey) {
        if let position = positions[key] {
            let id = registrations[position].id
            let kept = instances.remove(entryID: id)
            withExtendedLifetime(kept) {}
        }
    }

    /// The problems the check noticed; drops what it made inside steps with hooks.
    private func endCheck() -> [WiringProblem] {
        let noticed = findings.withLock { findings in
            defer { findings.removeAll() }
            return findings
        }
        let ids = madeUnderHooks.withLock { ids in
            defer { ids.removeAll() }
            return ids
        }
        if !ids.isEmpty {
            let dropped = instances.remove(entryIDs: ids)
            withExtendedLifetime(dropped) {}
        }
        return noticed
    }

    /// Answers the registration found at `origin` with the error it failed with from now on,
    /// so whatever needs it fails at once instead of walking down to the failure again.
    ///
    /// A cycle is not replayed: whether a registration is part of one can depend on where the
    /// resolution entered it (a `.graph` service setting a back reference in `initCompleted`
    /// builds alone, but not from the other end of the reference). Nor is a factory that must
    /// be awaited, met by a synchronous resolve. Any other failure happens wherever the
    /// registration is resolved.
    /// - Parameters:
    ///   - origin: Where the lookup found the registration, in the sandbox's numbering.
    ///   - key: Its key.
    ///   - error: What resolving it threw.
    func replay(origin: Int, key: ServiceKey, error: any Error) {
        guard origin > 0, let error = error as? ResolutionError else { return }
        switch error.reason {
        case .circularDependency, .requiresAwait:
            // Whether it fails depends on where it was entered from: a cycle from its other end,
            // an awaited factory from a synchronous resolve.
            return
        default:
            break
        }
        // The path from this registration down; an error it passed on from a registration
        // already replayed starts there, which is where the report puts it anyway.
        let replayed = error.path.firstIndex(of: key).map { start in
            ResolutionError(
                key: error.key, path: Array(error.path[start...]), reason: error.reason, site: error.site,
                origin: error.origin)
        } ?? error
        built.withLock { built in
            // A failure with runtime arguments may depend on them: it answers no other call.
            let entry = built[origin - 1]
            guard !entry.key.takesArguments else { return }
            built[origin - 1] = entry.throwing(id: entry.id, options: entry.options) { _ in replayed }
        }
    }

    /// Whether an implicit registration (`Injectable`, `Provider`, `Lazy`, `T?`) answers `key`.
    func answersImplicitly(_ key: ServiceKey) -> Bool {
        ImplicitRegistrations.existingEntry(for: key) != nil
    }

    /// Whether the test container had a registration for `key` when the check began.
    func isRegistered(_ key: ServiceKey) -> Bool {
        positions[key] != nil
    }

    /// Where the registration of `key` was made, if it is registered (not implicit, not a fake).
    func site(of key: ServiceKey) -> RegistrationSite? {
        positions[key].map { registrations[$0].site }
    }

    /// The scope a found registration was registered with, whatever the sandbox resolves it in.
    func registeredScope(of found: Lookup) -> Scope {
        found.origin > 0 ? registrations[found.origin - 1].scope : found.entry.scope
    }

    /// Whether the registration found was registered with `initCompleted` hooks.
    func hasHooks(_ found: Lookup) -> Bool {
        found.origin > 0 ? registrations[found.origin - 1].hasHooks : found.entry.hasHooks
    }

    /// Drops the instance of `entry` when the current check ends, as it was made inside a step
    /// with hooks. A hook runs once its own instance is kept, so what it resolves can use that
    /// one, half made; resolved first, from elsewhere, the same registration may meet a cycle
    /// instead. Built again in every check, such instances show what each check would meet.
    func dropAfterCheck(_ entry: RegistrationEntry) {
        madeUnderHooks.withLock { _ = $0.insert(entry.id) }
    }

    /// Notes that resolving `holder` resolved `key` directly (or asked for it, and found nothing
    /// registered), when the sandbox notes the graph.
    func noteDependency(of holder: ServiceKey, on key: ServiceKey) {
        notes?.withLock { _ = $0.dependencies[holder, default: []].insert(key) }
    }

    /// Notes that a step resolving `key` failed, when the sandbox notes the graph.
    func noteFailure(of key: ServiceKey) {
        notes?.withLock { _ = $0.failed.insert(key) }
    }

    /// What the checks so far showed; empty unless the sandbox was made to note it.
    var notedGraph: Notes {
        notes?.withLock { $0 } ?? Notes()
    }

    /// Keeps a problem an observer noticed, for `build` to hand back.
    func notice(_ problem: WiringProblem) {
        findings.withLock { $0.append(problem) }
    }

    /// The live-only registration an `@Injected` property of the registration being checked
    /// needed, which the sandbox refused: that registration is then unchecked, as one whose
    /// factory needs a live-only one is.
    private let liveOnlyInjection = LockedState<ResolutionError?>(nil)

    func noteLiveOnlyInjection(_ error: ResolutionError) {
        liveOnlyInjection.withLock { if $0 == nil { $0 = error } }
    }

    /// The live-only refusal an `@Injected` property met during the check, taken.
    private func takeLiveOnlyInjection() -> ResolutionError? {
        liveOnlyInjection.withLock { error in
            defer { error = nil }
            return error
        }
    }

    /// Notes that the registration found at `origin` hands back an instance living in `scope`.
    func noteForwarding(origin: Int, to scope: Scope) {
        guard origin > 0 else { return }
        forwardedScopes.withLock { $0[origin] = scope }
    }

    /// Notes what the instance of the registration found at `origin`, which keeps nothing itself
    /// (`.graph`, `.transient`), holds that may live shorter than what holds it: a step that finds
    /// it built already learns it here.
    func noteHeld(origin: Int, _ held: [VerificationObserver.Held]) {
        guard origin > 0 else { return }
        heldThrough.withLock { $0[origin] = held }
    }

    /// What ``noteHeld(origin:_:)`` noted for the registration found at `origin`.
    func held(origin: Int) -> [VerificationObserver.Held] {
        guard origin > 0 else { return [] }
        return heldThrough.withLock { $0[origin] ?? [] }
    }

    /// The scope the instance of the registration found at `origin` lives in, if it forwards one.
    func forwardedScope(origin: Int) -> Scope? {
        guard origin > 0 else { return nil }
        return forwardedScopes.withLock { $0[origin] }
    }

    /// Drops every instance made in the sandbox. An instance holding a `Provider`, a `Lazy` or
    /// a resolver holds the sandbox too, so without this neither would ever be freed.
    func dropInstances() {
        let dropped = instances.removeAll()
        // Released here, outside the lock: a deinit may well resolve something.
        withExtendedLifetime(dropped) {}
    }

    // MARK: ResolutionSource

    func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup? {
        if let position = positions[key] {
            return Lookup(entry: built.withLock { $0[position] }, cache: instances, origin: position + 1)
        }
        // Fakes (and anything registered since the check began), as the test container finds them.
        guard let found = test.lookup(key, in: call) else { return nil }
        let isFake = fakes[key] === found.entry
        return Lookup(entry: found.entry, cache: instances, origin: isFake ? Self.fakeOrigin : 0)
    }

    func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        built.withLock { built in
            built.enumerated().map { Lookup(entry: $1, cache: instances, origin: $0 + 1) }
        }
    }

    func implicitCache(for call: ResolutionEnvironment?) -> any InstanceCache { instances }

    func makeEnvironment() -> ResolutionEnvironment {
        ResolutionEnvironment(source: self, observer: VerificationObserver(sandbox: self))
    }

    /// A factory's `ScopeResetter` resets the sandbox's own instances: the check leaves the
    /// test container's alone.
    func resetKeptInstances(of scope: Scope) {
        let dropped = instances.reset(scope)
        withExtendedLifetime(dropped) {}
    }
}
