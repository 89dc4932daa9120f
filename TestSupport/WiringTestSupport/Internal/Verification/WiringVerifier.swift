import Wiring

/// Builds every registration of a test container once in a ``VerificationSandbox`` and turns
/// what went wrong into a ``WiringReport``.
struct WiringVerifier {
    let test: TestContainer
    let samples: VerificationSamples

    /// What one check found, for the manifest: the report, the registrations checked in the
    /// order checked, and what each key resolved directly and which failed.
    struct Findings {
        let report: WiringReport
        let registrations: [Lookup]
        let graph: VerificationSandbox.Notes
    }

    /// Builds every registration synchronously, in registration order; those whose factory (or
    /// a dependency's) must be awaited are listed as unchecked.
    func run() -> WiringReport {
        var pass = Pass(verifier: self, registrations: registrations(), notingGraph: false)
        defer { pass.sandbox.dropInstances() }
        pass.buildSynchronously()
        return pass.report()
    }

    /// Builds every registration, awaiting those whose factory (or a dependency's) must be
    /// awaited, as `container.async.resolve` would. Runs on the main actor, where an app resolves
    /// what its main-actor code needs: a synchronous factory that forwards to a main-actor one
    /// builds, and one that asserts the main thread is never run off it.
    @MainActor
    func runAwaitingFactories() async -> WiringReport {
        var pass = Pass(verifier: self, registrations: registrations(), notingGraph: false)
        defer { pass.sandbox.dropInstances() }
        pass.buildSynchronously()
        await pass.buildAwaited()
        return pass.report()
    }

    /// Checks the registrations in the order of their keys, so that what the check finds (the
    /// key a cycle is entered from, the order of the problems) does not depend on the order
    /// they were registered in, and notes what each key resolves and which fail.
    func runForManifest() -> Findings {
        var pass = Pass(verifier: self, registrations: registrations().sorted(byLabelOf: \.entry.key), notingGraph: true)
        defer { pass.sandbox.dropInstances() }
        pass.buildSynchronously()
        return Findings(report: pass.report(), registrations: pass.registrations, graph: pass.sandbox.notedGraph)
    }

    /// Checks the registrations as ``runForManifest()`` does, awaiting those that must be
    /// awaited, as ``runAwaitingFactories()`` does.
    @MainActor
    func runForManifestAwaiting() async -> Findings {
        var pass = Pass(verifier: self, registrations: registrations().sorted(byLabelOf: \.entry.key), notingGraph: true)
        defer { pass.sandbox.dropInstances() }
        pass.buildSynchronously()
        await pass.buildAwaited()
        return Findings(report: pass.report(), registrations: pass.registrations, graph: pass.sandbox.notedGraph)
    }

    /// What the test container sees, registered (not implicit), in registration order.
    private func registrations() -> [Lookup] {
        test.visibleRegistrations(includingParents: true).filter { !$0.entry.options.isImplicit }
    }

    /// One verification: the sandbox, and what it found so far.
    private struct Pass {
        let registrations: [Lookup]
        let sandbox: VerificationSandbox
        let samples: VerificationSamples
        var problems: ProblemList
        var checked: [ServiceKey] = []
        var unchecked: [WiringReport.Unchecked] = []
        /// The live-only registrations, never run.
        var liveOnly: [WiringReport.Unchecked] = []
        let warnings: [WiringWarning]
        /// The registrations a synchronous build cannot check, with why, until awaited, and the
        /// error the synchronous build met, if it tried.
        var awaited: [(found: Lookup, reason: String, error: ResolutionError?)] = []

        init(verifier: WiringVerifier, registrations: [Lookup], notingGraph: Bool) {
            self.registrations = registrations
            sandbox = VerificationSandbox(test: verifier.test, registrations: registrations, notesGraph: notingGraph)
            samples = verifier.samples
            problems = ProblemList(sandbox: sandbox)
            warnings = verifier.test.registrationWarnings.filter { $0.identifier == "duplicate-registration" }
        }

        mutating func buildSynchronously() {
            for found in registrations {
                let entry = found.entry
                let key = entry.key
                if entry.options.isLiveOnly {
                    checkWithoutRunning(entry)
                    continue
                }
                // A main-actor factory, or one forwarding to it, builds here when the check runs on
                // the main actor; off it, its requires-await error puts it with the awaited ones below.
                if entry.factoryIsolation == .async {
                    awaited.append((found, WiringVerifier.awaitedReason, nil))
                    continue
                }
                let sample = samples.sample(for: key)
                if key.takesArguments, sample == nil {
                    unchecked.append(.init(key: key, site: entry.site, reason: WiringVerifier.argumentsReason(key), needsSample: true))
                    continue
                }
                let (error, noticed) = sandbox.build(key, sample: sample)
                noticed.forEach { problems.add($0) }
                if let error = error as? ResolutionError, case .liveOnly = error.reason {
                    unchecked.append(.init(key: key, site: entry.site, reason: WiringVerifier.liveOnlyReason(error)))
                    continue
                }
                if let error = error as? ResolutionError, WiringProblem.kind(of: error) == nil {
                    let reason = error.key == key ? WiringVerifier.awaitedReason : WiringVerifier.awaitedReason(error)
                    awaited.append((found, reason, error))
                    continue
                }
                record(error, for: found)
            }
            for found in registrations where found.entry.keepsOneInstanceForAllArguments {
                problems.add(.scopeIgnoresArguments(found.entry))
            }
            for key in samples.keys where !sandbox.isRegistered(key) {
                let nearMisses = registrations
                    .filter { $0.entry.key.typeIdentifier == key.typeIdentifier }
                    .map { ResolutionError.RegisteredKey(key: $0.entry.key, site: $0.entry.site) }
                problems.add(.unusedSample(key, nearMisses: nearMisses))
            }
        }

        /// Builds, with `await`, what the synchronous build could not. A synchronous factory
        /// that still needs an awaited one is a problem now: nothing can resolve it.
        @MainActor
        mutating func buildAwaited() async {
            let awaited = self.awaited
            self.awaited = []
            for (found, _, synchronousError) in awaited {
                if !found.entry.needsAwait, let synchronousError {
                    // A synchronous factory that met an awaited one on the main actor, where every
                    // synchronous resolve can run: nothing can resolve it synchronously (awaiting it
                    // would only work once the awaited instance happens to be kept).
                    checked.append(found.entry.key)
                    problems.add(WiringProblem(synchronousError, siteOf: sandbox.site(of:)))
                    continue
                }
                let key = found.entry.key
                let (error, noticed) = await sandbox.buildAwaiting(key, sample: samples.asyncSample(for: key))
                noticed.forEach { problems.add($0) }
                if let error = error as? ResolutionError, WiringProblem.kind(of: error) == nil {
                    checked.append(found.entry.key)
                    problems.add(WiringProblem(error, siteOf: sandbox.site(of:)))
                    continue
                }
                record(error, for: found)
            }
        }

        /// Checks a live-only registration without running its factory: what its autowired
        /// initializer declares must be answered.
        private mutating func checkWithoutRunning(_ entry: RegistrationEntry) {
            liveOnly.append(.init(key: entry.key, site: entry.site, reason: WiringVerifier.liveOnlyNotRun))
            for dependency in entry.options.dependencies ?? [] where !dependency.isOptional {
                guard sandbox.lookup(dependency.key, in: nil) == nil, !sandbox.answersImplicitly(dependency.key) else { continue }
                problems.add(ResolutionError(
                    key: dependency.key, path: [entry.key, dependency.key], reason: .notRegistered(nearMisses: [])))
            }
        }

        /// Notes a registration built, and the problem it showed, if any.
        private mutating func record(_ error: (any Error)?, for found: Lookup) {
            let key = found.entry.key
            checked.append(key)
            switch error {
            case nil:
                break
            case let error as ResolutionError:
                problems.add(error)
            case let error?:
                problems.add(.unexpected(error, verifying: key, site: found.entry.site))
            }
        }

        func report() -> WiringReport {
            let notAwaited = awaited.map { WiringReport.Unchecked(key: $0.found.entry.key, site: $0.found.entry.site, reason: $0.reason) }
            // A registration taking arguments that no sample built was still checked if building
            // another built it, with the arguments that one passed.
            let builtAsDependency = unchecked.filter { $0.needsSample && sandbox.wasBuiltWithArguments($0.key) }
            let stillUnchecked = unchecked.filter { !($0.needsSample && sandbox.wasBuiltWithArguments($0.key)) }
            return WiringReport(
                problems: problems.found, checked: checked + builtAsDependency.map(\.key),
                unchecked: stillUnchecked + notAwaited, liveOnly: liveOnly, warnings: warnings)
        }
    }

    // MARK: Why not built

    fileprivate static let awaitedReason =
        "its factory must be awaited (registerAsync, or registerMainActor off the main actor), which this synchronous check does not run; check it with `await test.verifyWiringAsync()`, or call `verifyWiring()` on the main actor"

    fileprivate static func awaitedReason(_ error: ResolutionError) -> String {
        let path = BoundedText.chain(error.path)
        return "needs \(error.key), whose factory must be awaited (path: \(path)); check it with `await test.verifyWiringAsync()`"
    }

    fileprivate static let liveOnlyNotRun =
        "live-only: its factory is never run here (only what its autowired initializer declares was checked); override it or give it a fake to check it"

    fileprivate static func liveOnlyReason(_ error: ResolutionError) -> String {
        let path = BoundedText.chain(error.path)
        return "needs \(error.key), which is live-only, so it was not built (path: \(path)); override \(error.key.typeDescription) or give it a fake to check this one"
    }

    fileprivate static func argumentsReason(_ key: ServiceKey) -> String {
        "takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in \(key.call("samples.add")) }`"
    }
}

/// The problems found so far, each once, under the registration closest to it.
private struct ProblemList {
    private(set) var found: [WiringProblem] = []
    private var seen: Set<Identity> = []
    private let sandbox: VerificationSandbox
    /// Registrations whose own verification builds them exactly as any path reaching them does:
    /// a problem below one of them is reported there, not under every registration above it.
    private let buildsAlone: Set<ServiceKey>

    /// What makes two problems the same one.
    private enum Identity: Hashable {
        case problem(identifier: String, path: [ServiceKey])
        /// A cycle is the same whichever of its keys it was entered from.
        case cycle(Set<ServiceKey>)
    }

    init(sandbox: VerificationSandbox) {
        self.sandbox = sandbox
        var keys = Set<ServiceKey>()
        for found in sandbox.visibleRegistrations(includingParents: true)
        where !found.entry.key.takesArguments && !found.entry.needsAwait {
            keys.insert(found.entry.key)
        }
        buildsAlone = keys
    }

    mutating func add(_ problem: WiringProblem) {
        let start = closest(problem.kind, problem.path, heldThrough: problem.heldThrough)
        guard isNew(problem.kind, problem.identifier, problem.path[start...]) else { return }
        found.append(problem.starting(at: start))
    }

    /// Adds the problem a resolution error shows; its text is made only if it is a new one,
    /// as the list of near misses can be long.
    mutating func add(_ error: ResolutionError) {
        guard let (kind, identifier) = WiringProblem.kind(of: error) else { return }
        let path = error.path.isEmpty ? [error.key] : error.path
        let start = closest(kind, path)
        guard isNew(kind, identifier, path[start...]) else { return }
        found.append(WiringProblem(error, siteOf: sandbox.site(of:)).starting(at: start))
    }

    private mutating func isNew(_ kind: WiringProblem.Kind, _ identifier: String, _ path: ArraySlice<ServiceKey>) -> Bool {
        let identity: Identity = kind == .cycle
            ? .cycle(Set(path[cycleStart(path)...]))
            : .problem(identifier: identifier, path: Array(path))
        return seen.insert(identity).inserted
    }

    /// Where the problem starts as the verification of the last registration on its path, at
    /// or above the step at fault, finds it, when that registration builds alone.
    private func closest(_ kind: WiringProblem.Kind, _ path: [ServiceKey], heldThrough: Int = 0) -> Int {
        let atFault: Int
        switch kind {
        case .factoryFailed, .other: atFault = path.count - 1
        case .missingDependency, .faked: atFault = path.count - 2
        case .captiveDependency: atFault = path.count - 2 - heldThrough
        case .cycle: atFault = cycleStart(path[...])
        }
        guard atFault > 0 else { return 0 }
        return path[...atFault].lastIndex { buildsAlone.contains($0) } ?? 0
    }

    /// Where the cycle at the end of a path begins: the first step of the key it repeats.
    private func cycleStart(_ path: ArraySlice<ServiceKey>) -> Int {
        guard let repeated = path.last else { return path.startIndex }
        return path.firstIndex(of: repeated) ?? path.startIndex
    }
}
