import Wiring

/// Records the steps of one top-level resolution through a test container as a flat list, in
/// the order they began, and nothing more: the test container builds the trace tree, the counts
/// and the instance numbers from it only when something reads them. Keeping a step costs an
/// append; building a tree node, hashing its key and numbering its instance on every step made
/// recording cost many times the resolution it records.
///
/// Recorders are kept and reused by their test container, so recording allocates nothing once
/// warm.
final class TraceRecorder: ResolutionObserver, @unchecked Sendable {
    // Used by one resolution, which runs on one thread at a time, then only by its test
    // container, under its lock.

    /// One step: the registration used (none when nothing was registered), where it came from,
    /// the step it was resolved for and what it gave.
    struct Step {
        let entry: RegistrationEntry?
        let origin: Int32
        /// The index of the step this one was resolved for; -1 for a top-level request.
        let parent: Int32
        var outcome: Outcome
        /// Where its instance is in `instances`; -1 until it has one.
        var instance: Int32 = -1
    }

    enum Outcome: UInt8 {
        case pending, created, cached, sharedInGraph, failed
    }

    /// A dependency of a cached instance that is overridden now, though it was not when the
    /// instance was made.
    struct StaleDependency {
        let key: ServiceKey
        let overriddenIn: String
        let site: RegistrationSite
    }

    @exclusivity(unchecked) private(set) var steps: ContiguousArray<Step> = []
    /// What the steps gave, in the order they finished.
    @exclusivity(unchecked) private(set) var instances: ContiguousArray<Any> = []
    /// The key and error identifier of each failed step, by index.
    @exclusivity(unchecked) private(set) var failures: [Int: (key: ServiceKey, identifier: String)] = [:]
    /// The steps that returned a stale cached instance, by index.
    @exclusivity(unchecked) var staleDependencies: [Int: [StaleDependency]] = [:]
    /// Whether a step used a stored scope: only then can an instance be stale.
    @exclusivity(unchecked) private(set) var hasStoredScopes = false
    /// Whether the steps go into the trace, or only into counts and instance numbers.
    @exclusivity(unchecked) var keepsTree = true
    /// The layers the resolution looks up in, set by the test container before it starts.
    @exclusivity(unchecked) var snapshot: LayerSnapshot
    @exclusivity(unchecked) private var open: ContiguousArray<Int32> = []
    /// The test container outlives every resolution through it, and so every use of this.
    private unowned(unsafe) let test: TestContainer

    init(test: TestContainer, snapshot: LayerSnapshot) {
        self.test = test
        self.snapshot = snapshot
    }

    func willResolve(_ found: Found, path: @autoclosure () -> [ServiceKey]) {
        let entry = found.entry
        if _slowPath(found.origin == TestContainer.fakeOrigin) { test.fakes.noteUsed(entry.key) }
        if entry.isStored { hasStoredScopes = true }
        let parent = open.last ?? -1
        open.append(Int32(truncatingIfNeeded: steps.count))
        steps.append(Step(entry: entry, origin: Int32(truncatingIfNeeded: found.origin), parent: parent, outcome: .pending))
    }

    func didResolve(_ instance: () -> Any, outcome: ResolutionOutcome) {
        guard let index = open.popLast() else { return }
        let step = Int(truncatingIfNeeded: index)
        switch outcome {
        case .created: steps[step].outcome = .created
        case .cached: steps[step].outcome = .cached
        case .sharedInGraph:
            // Made earlier in this resolution, by a step that kept it: numbered from that one.
            steps[step].outcome = .sharedInGraph
            return
        }
        steps[step].instance = Int32(truncatingIfNeeded: instances.count)
        instances.append(instance())
    }

    func didFail(_ key: ServiceKey, error: any Error) {
        let identifier = (error as? ResolutionError)?.identifier ?? "factory-failed"
        // A missing registration fails before any step began; anything else ends the open step.
        if let last = open.last, steps[Int(last)].entry?.key == key, !isMissing(error, key) {
            open.removeLast()
            steps[Int(last)].outcome = .failed
            failures[Int(last)] = (key, identifier)
        } else {
            failures[steps.count] = (key, identifier)
            steps.append(Step(entry: nil, origin: 0, parent: open.last ?? -1, outcome: .failed))
        }
    }

    func resolutionEnded() {
        open.removeAll(keepingCapacity: true)
        test.finished(self)
    }

    private func isMissing(_ error: any Error, _ key: ServiceKey) -> Bool {
        guard let error = error as? ResolutionError, case .notRegistered = error.reason else { return false }
        return error.key == key && error.path.count == open.count + 1
    }

    /// The key step `index` asked for.
    func key(at index: Int) -> ServiceKey {
        steps[index].entry?.key ?? failures[index]!.key
    }

    /// The steps below step `index`: they follow it, up to the first step outside it.
    func descendants(of index: Int) -> Range<Int> {
        var end = index + 1
        while end < steps.count, steps[end].parent >= index {
            end += 1
        }
        return index + 1..<end
    }

    /// Empties the recorder for its next resolution, releasing the instances it held.
    func reset() {
        steps.removeAll(keepingCapacity: true)
        instances.removeAll(keepingCapacity: true)
        if !failures.isEmpty { failures = [:] }
        if !staleDependencies.isEmpty { staleDependencies = [:] }
        hasStoredScopes = false
        keepsTree = true
    }

    // MARK: Replaying

    /// Adds the recorded steps to `history`: counts, used registrations, instance numbers in
    /// order of creation, stale-instance warnings and, if kept, the trace tree.
    func replay(into history: inout TraceHistory) {
        var children = [[Int]](repeating: [], count: steps.count)
        var roots: [Int] = []
        for (index, step) in steps.enumerated() {
            if step.parent < 0 { roots.append(index) } else { children[Int(step.parent)].append(index) }
            if let entry = step.entry {
                history.counts[entry.key, default: 0] += 1
                history.used.insert(entry.id)
            }
        }
        var numbers = [Int?](repeating: nil, count: steps.count)
        /// The step that made each `.graph` instance, by registration.
        var madeInGraph: [Int: Int] = [:]
        // Instances are numbered in the order their steps finished: children before parents.
        func number(_ index: Int) {
            for child in children[index] { number(child) }
            let step = steps[index]
            if step.outcome == .sharedInGraph, let entry = step.entry, let maker = madeInGraph[entry.id] {
                // Only an object is the same instance again; a value shared is a copy.
                let instance = instances[Int(steps[maker].instance)]
                numbers[index] = type(of: instance) is AnyClass ? numbers[maker] : nil
                return
            }
            guard step.outcome != .failed, step.instance >= 0 else { return }
            numbers[index] = history.numbers.number(for: instances[Int(step.instance)], isNew: step.outcome == .created)
            if step.outcome == .created, let entry = step.entry, entry.lifetime == .graph { madeInGraph[entry.id] = index }
        }
        for root in roots { number(root) }

        var warnings = [[String]](repeating: [], count: steps.count)
        for (index, dependencies) in staleDependencies.sorted(by: { $0.key < $1.key }) {
            for dependency in dependencies {
                let warning = StaleInstanceWarning(
                    service: key(at: index), instance: numbers[index], dependency: dependency.key,
                    overriddenIn: dependency.overriddenIn, site: dependency.site)
                warnings[index].append(warning.description)
                if !history.staleWarnings.contains(warning) { history.staleWarnings.append(warning) }
            }
        }
        guard keepsTree else { return }

        func makeNode(_ index: Int) -> ResolutionTrace.Node {
            let step = steps[index]
            var node: ResolutionTrace.Node
            if let entry = step.entry {
                node = ResolutionTrace.Node(
                    key: entry.key, scope: entry.scope, source: source(of: step, entry), outcome: .created,
                    entryID: entry.id)
            } else {
                node = ResolutionTrace.Node(key: key(at: index), scope: nil, source: .missing, outcome: .created, entryID: nil)
            }
            switch step.outcome {
            case .pending, .created: node.outcome = .created
            case .cached: node.outcome = .cached
            case .sharedInGraph: node.outcome = .sharedInGraph
            case .failed: node.outcome = .failed(failures[index]?.identifier ?? "factory-failed")
            }
            node.instance = numbers[index]
            node.warnings = warnings[index]
            node.children = children[index].map(makeNode)
            return node
        }
        history.roots.append(contentsOf: roots.map(makeNode))
    }

    /// Adds the recorded steps to `history` without keeping a trace: what `clearTrace` does with
    /// steps nobody looked at. Registrations still count as used, and instance numbers go on
    /// from where they were; an instance a stored scope keeps keeps its number.
    func forget(into history: inout TraceHistory) {
        var made = 0
        steps.withUnsafeBufferPointer { steps in
            for step in steps {
                guard let entry = step.entry else { continue }
                history.used.insert(entry.id)
                if step.outcome == .created { made += 1 }
            }
        }
        guard hasStoredScopes else {
            history.numbers.skip(made)
            return
        }
        // Numbers go in the order the steps finished, which is the order of their instances.
        var finished = [Int](repeating: -1, count: instances.count)
        for (index, step) in steps.enumerated() where step.instance >= 0 {
            finished[Int(step.instance)] = index
        }
        for index in finished where index >= 0 && steps[index].outcome == .created {
            if steps[index].entry?.isStored == true {
                _ = history.numbers.number(for: instances[Int(steps[index].instance)], isNew: true)
            } else {
                history.numbers.skip(1)
            }
        }
    }

    private func source(of step: Step, _ entry: RegistrationEntry) -> ResolutionTrace.Source {
        if entry.options.isImplicit { return .implicit }
        if step.origin == TestContainer.fakeOrigin { return .fake(entry.site) }
        // A step that found its registration in the merged registry does not know its layer.
        let origin = step.origin != 0 ? Int(step.origin) : snapshot.origin(of: entry)
        if origin != 0, let layer = snapshot.layerName(of: origin) {
            return .override(layer: layer, site: entry.site)
        }
        return .registration(entry.site)
    }
}

/// What the test container has taken from its recorders: the trace, and what outlives clearing it.
struct TraceHistory {
    var roots: [ResolutionTrace.Node] = []
    var counts: [ServiceKey: Int] = [:]
    var used = EntrySet()
    var numbers = InstanceNumbers()
    var staleWarnings: [StaleInstanceWarning] = []
}

/// A set of registration ids, which are small and dense: one bit each.
struct EntrySet {
    private var words: [UInt64] = []

    mutating func insert(_ id: Int) {
        let word = id >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(id & 63)
    }

    func contains(_ id: Int) -> Bool {
        let word = id >> 6
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }
}
