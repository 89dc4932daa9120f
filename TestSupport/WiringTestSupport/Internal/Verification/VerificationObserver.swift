import Wiring

/// Follows one resolution in a ``VerificationSandbox``: notices captive dependencies (a
/// longer-lived instance holding a shorter-lived one) and, when fakes are strict, services that
/// came from a fake, and has the sandbox replay each failure and note who resolved whom.
final class VerificationObserver: ResolutionObserver, @unchecked Sendable {
    // Used by one resolution, which runs on one thread at a time.

    /// A step in progress: the steps open below the top-level request, in order.
    private struct Step {
        let key: ServiceKey
        /// As registered, not as the sandbox builds it.
        let scope: Scope
        let site: RegistrationSite
        let origin: Int
        let hasHooks: Bool
        /// The keys above this step.
        let path: [ServiceKey]
        let entry: RegistrationEntry
        /// What the steps this one resolved gave, kept only for steps that could be captive: a
        /// step handing back an instance one of them made (as `implements` does) lives as long
        /// as that one, not as its own scope says.
        var made: [Made] = []
        /// What the instance holds that may live shorter than it, directly or through steps that
        /// keep nothing of their own: each service once, at most ``heldLimit`` of them.
        private(set) var held: [Held] = []

        mutating func hold(_ service: Held) {
            guard service.scope.policy.mayBeCaptive, held.count < Step.heldLimit,
                !held.contains(where: { $0.key == service.key })
            else { return }
            held.append(service)
        }

        /// Enough to name every short-lived service a real instance holds; a bound, so that a
        /// graph of thousands of services is checked in linear time.
        static let heldLimit = 32
    }

    /// A service an instance holds, directly or through services that keep nothing of their own
    /// (`.graph`, `.transient`) and so live as long as it does, with the keys down to it.
    struct Held: Sendable {
        let key: ServiceKey
        let scope: Scope
        /// From the service the instance resolved directly down to this one.
        let path: [ServiceKey]
    }

    /// An instance a step gave, with how long it really lives.
    private struct Made {
        let object: AnyObject?
        let scope: Scope
    }

    private let sandbox: VerificationSandbox
    private var open: [Step] = []
    /// How many open steps have `initCompleted` hooks: what is made below one is not kept.
    private var hooked = 0

    init(sandbox: VerificationSandbox) {
        self.sandbox = sandbox
    }

    func willResolve(_ found: Lookup, path: @autoclosure () -> [ServiceKey]) {
        let key = found.entry.key
        let path = path()
        if sandbox.reportsFakes, found.origin == VerificationSandbox.fakeOrigin {
            sandbox.notice(faked(key, found: found, path: path + [key]))
        }
        if let holder = open.last { sandbox.noteDependency(of: holder.key, on: key) }
        let hasHooks = sandbox.hasHooks(found)
        if hasHooks { hooked += 1 }
        open.append(Step(
            key: key, scope: sandbox.registeredScope(of: found), site: found.entry.site, origin: found.origin,
            hasHooks: hasHooks, path: path, entry: found.entry))
    }

    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome) {
        guard let step = open.popLast() else { return }
        if step.key.takesArguments { sandbox.noteBuiltWithArguments(step.key) }
        let instance = instance as Any
        if hooked > 0, outcome == .created { sandbox.dropAfterCheck(step.entry) }
        if step.hasHooks { hooked -= 1 }
        let scope = livesAs(step, instance: instance, outcome: outcome)
        let heldBelow = heldThrough(step, outcome: outcome)
        guard let holder = open.last else { return }
        if holder.scope.policy.mayBeCaptive {
            open[open.count - 1].made.append(Made(object: objectReference(in: instance), scope: scope))
        }
        guard !Self.isDeferring(step.key) else { return }
        open[open.count - 1].hold(Held(key: step.key, scope: scope, path: [step.key]))
        for held in heldBelow { open[open.count - 1].hold(Held(key: held.key, scope: held.scope, path: [step.key] + held.path)) }
        guard let keeper = keeper(of: step) else { return }
        if Self.isCaptive(scope, heldBy: keeper.scope) {
            sandbox.notice(captive(step.key, scope: scope, path: step.path + [step.key], holder: keeper, direct: holder.key))
        }
        // Built before, its own steps did not run now: what it holds is checked here.
        guard outcome != .created else { return }
        for held in heldBelow where Self.isCaptive(held.scope, heldBy: keeper.scope) {
            let path = step.path + [step.key] + held.path
            sandbox.notice(captive(held.key, scope: held.scope, path: path, holder: keeper, direct: path.dropLast().last ?? step.key))
        }
    }

    /// What the instance `step` gave holds through steps that keep nothing of their own, which
    /// the kept step above it then holds too: noted when it was made, found when it was built
    /// before. Nothing for a step that keeps its instance: what that holds is its own to check.
    private func heldThrough(_ step: Step, outcome: ResolutionOutcome) -> [Held] {
        guard !step.scope.policy.keepsInstances else { return [] }
        guard outcome == .created else { return sandbox.held(origin: step.origin) }
        sandbox.noteHeld(origin: step.origin, step.held)
        return step.held
    }

    /// The open step whose kept instance ends up holding what `step` made: its holder, or, when
    /// that keeps nothing itself (`.graph`, `.transient`) and so lives as long as what holds it,
    /// the nearest step above that keeps its instance. `nil` when none does, or when a `Provider`
    /// or a `Lazy` stands between them (what it resolves is resolved again on each use).
    private func keeper(of step: Step) -> Step? {
        for holder in open.reversed() {
            if holder.scope.policy.keepsInstances { return holder }
            if Self.isDeferring(holder.key) { return nil }
        }
        return nil
    }

    func didFail(_ key: ServiceKey, error: any Error) {
        // A missing registration fails before any step began; anything else ends the open step.
        if isMissing(error, key) {
            if let holder = open.last { sandbox.noteDependency(of: holder.key, on: key) }
            return
        }
        guard let step = open.last, step.key == key else { return }
        sandbox.noteFailure(of: key)
        open.removeLast()
        if step.hasHooks { hooked -= 1 }
        sandbox.replay(origin: step.origin, key: key, error: error)
    }

    /// An `@Injected` property of what the open step makes could not be resolved: a live-only
    /// need leaves the registration unchecked, anything else is a missing dependency, named with
    /// the property.
    func propertyInjectionFailed(_ error: ResolutionError, declaredAt site: RegistrationSite) {
        if case .liveOnly = error.reason {
            sandbox.noteLiveOnlyInjection(error)
            return
        }
        guard let holder = open.last else { return }
        let needed = error.key
        sandbox.notice(
            WiringProblem(
                kind: .missingDependency, identifier: "missing-dependency", path: holder.path + [needed], site: holder.site,
                message: "\(holder.key) has an @Injected property of \(needed), declared at \(site), and nothing answers it: "
                    + "reading the property stops the app",
                fix: "register \(needed) in the app's container (or override it in the test), or resolve it through the "
                    + "factory's resolver and pass it in."))
    }

    // MARK: Lifetimes

    /// How long the instance a finished step gave lives: as long as the instance of a step it
    /// resolved, when it handed that one back, else as its own scope says.
    private func livesAs(_ step: Step, instance: Any, outcome: ResolutionOutcome) -> Scope {
        guard step.scope.policy.mayBeCaptive else { return step.scope }
        guard outcome == .created else {
            // Kept by the sandbox: the steps that showed what it forwards ran when it was made.
            return sandbox.forwardedScope(origin: step.origin) ?? step.scope
        }
        guard !step.made.isEmpty, let object = objectReference(in: instance),
            let forwarded = step.made.first(where: { $0.object === object })
        else { return step.scope }
        sandbox.noteForwarding(origin: step.origin, to: forwarded.scope)
        return forwarded.scope
    }

    private static func isCaptive(_ scope: Scope, heldBy holder: Scope) -> Bool {
        scope.policy.isCaptive(heldBy: holder.policy)
    }

    /// `Provider` and `Lazy` resolve later, on each use: holding one is the fix, not the problem.
    private static func isDeferring(_ key: ServiceKey) -> Bool {
        key.isMadeByTheEngine
    }

    private func isMissing(_ error: any Error, _ key: ServiceKey) -> Bool {
        guard let error = error as? ResolutionError, case .notRegistered = error.reason else { return false }
        return error.key == key && error.path.count == open.count + 1
    }

    // MARK: Problems

    /// `holder` keeps `held`, living in `scope`, which `direct` resolved (`holder` itself, or a
    /// service below it that keeps nothing of its own); `path` runs from the top-level request
    /// down to `held`.
    private func captive(
        _ held: ServiceKey, scope: Scope, path: [ServiceKey], holder: Step, direct: ServiceKey
    ) -> WiringProblem {
        let holderScope = holder.scope
        let through = direct == holder.key ? "" : " through \(direct)"
        return WiringProblem(
            kind: .captiveDependency, identifier: "captive-dependency", path: path,
            site: holder.site,
            message: "\(holder.key) (\(holderScope)) holds \(held) (\(scope))\(through), so one \(held) lives as long as the "
                + "kept \(holder.key)",
            fix: "make \(held) \(holderScope) too, or inject `Provider<\(held.typeDescription)>` into \(direct) and resolve it "
                + "when needed.",
            // The keys between the holder, which `path` passes through (its own path is the
            // keys above it), and the captive one.
            heldThrough: max(path.count - 2 - holder.path.count, 0))
    }

    private func faked(_ key: ServiceKey, found: Lookup, path: [ServiceKey]) -> WiringProblem {
        let needer = path.dropLast().last
        return WiringProblem(
            kind: .faked, identifier: "faked", path: path, site: needer.flatMap(sandbox.site(of:)),
            message: "\(key) came from the fake registered at \(found.entry.site): nothing registers it",
            fix: "register \(key) in the app's container (or override it in the test), or leave `fakes.isStrict` off if a fake is what the test wants.")
    }
}
