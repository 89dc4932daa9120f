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

    /// Checks the registrations in registration order.
    func run() -> WiringReport {
        check(registrations(), notingGraph: false).report
    }

    /// Checks the registrations in the order of their keys, so that what the check finds (the
    /// key a cycle is entered from, the order of the problems) does not depend on the order
    /// they were registered in, and notes what each key resolves and which fail.
    func runForManifest() -> Findings {
        check(registrations().sorted(byLabelOf: \.entry.key), notingGraph: true)
    }

    /// What the test container sees, registered (not implicit), in registration order.
    private func registrations() -> [Lookup] {
        test.visibleRegistrations(includingParents: true).filter { !$0.entry.options.isImplicit }
    }

    private func check(_ registrations: [Lookup], notingGraph: Bool) -> Findings {
        let sandbox = VerificationSandbox(test: test, registrations: registrations, notesGraph: notingGraph)
        defer { sandbox.dropInstances() }
        var problems = ProblemList(sandbox: sandbox)
        var checked: [ServiceKey] = []
        var unchecked: [WiringReport.Unchecked] = []
        for found in registrations {
            let entry = found.entry
            let key = entry.key
            if entry.needsAwait {
                unchecked.append(.init(key: key, site: entry.site, reason: Self.awaitedReason))
                continue
            }
            let sample = samples.sample(for: key)
            if key.takesArguments, sample == nil {
                unchecked.append(.init(key: key, site: entry.site, reason: Self.argumentsReason(key), needsSample: true))
                continue
            }
            let (error, noticed) = sandbox.build(key, sample: sample)
            noticed.forEach { problems.add($0) }
            switch error {
            case nil:
                checked.append(key)
            case let error as ResolutionError:
                guard WiringProblem.kind(of: error) != nil else {
                    unchecked.append(.init(key: key, site: entry.site, reason: Self.awaitedReason(error)))
                    continue
                }
                checked.append(key)
                problems.add(error)
            case let error?:
                checked.append(key)
                problems.add(.unexpected(error, verifying: key, site: entry.site))
            }
        }
        for key in samples.keys where !sandbox.isRegistered(key) {
            let nearMisses = registrations
                .filter { $0.entry.key.typeIdentifier == key.typeIdentifier }
                .map { ResolutionError.RegisteredKey(key: $0.entry.key, site: $0.entry.site) }
            problems.add(.unusedSample(key, nearMisses: nearMisses))
        }
        let report = WiringReport(problems: problems.found, checked: checked, unchecked: unchecked)
        return Findings(report: report, registrations: registrations, graph: sandbox.notedGraph)
    }

    // MARK: Why not built

    private static let awaitedReason =
        "its factory must be awaited (registerAsync or registerMainActor), which this synchronous check does not run; resolve it with `await` in a test of its own"

    private static func awaitedReason(_ error: ResolutionError) -> String {
        let path = error.path.map(\.description).joined(separator: " -> ")
        return "needs \(error.key), whose factory must be awaited (path: \(path)); resolve it with `await` in a test of its own"
    }

    private static func argumentsReason(_ key: ServiceKey) -> String {
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
        let start = closest(problem.kind, problem.path)
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
    private func closest(_ kind: WiringProblem.Kind, _ path: [ServiceKey]) -> Int {
        let atFault: Int
        switch kind {
        case .factoryFailed, .other: atFault = path.count - 1
        case .missingDependency, .captiveDependency, .faked: atFault = path.count - 2
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
