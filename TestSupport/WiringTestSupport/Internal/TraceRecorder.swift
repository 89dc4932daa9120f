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
        /// Kept alive by the recorder's `kept` entries, not by the step: see ``KeptEntries``.
        let unmanagedEntry: Unmanaged<RegistrationEntry>?
        let origin: Int32
        /// The index of the step this one was resolved for; -1 for a top-level request.
        let parent: Int32
        var outcome: Outcome
        /// The class of the object it gave; `nil` for a value, or before it gave anything.
        var objectType: ObjectIdentifier?
        /// The object it gave, if its number may depend on which object it is.
        var object: ObjectIdentifier?

        var entry: RegistrationEntry? { unmanagedEntry?.takeUnretainedValue() }

        init(entry: Unmanaged<RegistrationEntry>?, origin: Int32, parent: Int32, outcome: Outcome) {
            unmanagedEntry = entry
            self.origin = origin
            self.parent = parent
            self.outcome = outcome
        }
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

    @exclusivity(unchecked) private(set) var steps = RecordBuffer<Step>()
    /// The registrations the steps used, until the snapshot changes.
    @exclusivity(unchecked) private var kept = KeptEntries()
    /// The ids of registrations first kept since the test container last took what this
    /// recorder used: every registration a step used is in `kept`, so these are all it has
    /// not been told of.
    @exclusivity(unchecked) private var newlyUsed: [Int] = []
    /// Every object the steps gave, until the resolution ends: while it runs, no two of its
    /// objects can have the same address, so identifiers tell them apart.
    @exclusivity(unchecked) private var live = RecordBuffer<Unmanaged<AnyObject>>()
    /// The objects behind a protocol, which only a costly cast tells apart, by step, until the
    /// resolution ends: then only those whose number may depend on it are told apart.
    @exclusivity(unchecked) private var hidden = RecordBuffer<(step: Int, instance: Any)>()
    /// The key and error identifier of each failed step, by index.
    @exclusivity(unchecked) private(set) var failures: [Int: (key: ServiceKey, identifier: String)] = [:]
    /// The steps that returned a stale cached instance, by index.
    @exclusivity(unchecked) var staleDependencies: [Int: [StaleDependency]] = [:]
    /// Whether a step used a stored scope: only then can an instance be stale.
    @exclusivity(unchecked) private(set) var hasStoredScopes = false
    /// How many steps made an instance.
    @exclusivity(unchecked) private var createdCount = 0
    /// One bit per class of the objects the steps gave, by a hash of the class: while no two
    /// steps' objects may be of one class, no two are the same object.
    @exclusivity(unchecked) private var objectClasses: UInt64 = 0
    /// Whether two steps may have given the same object.
    @exclusivity(unchecked) private var mayRepeatObjects = false
    /// Whether the steps go into the trace, or only into counts and instance numbers.
    @exclusivity(unchecked) var keepsTree = true
    /// The layers the resolution looks up in, set by the test container before it starts.
    @exclusivity(unchecked) var snapshot: LayerSnapshot {
        didSet {
            unownedSnapshot = .passUnretained(snapshot)
            // Set only between resolutions, when no step refers to a kept entry.
            kept.removeAll()
        }
    }
    /// `snapshot`, for handing to the resolution without reference counting.
    @exclusivity(unchecked) private(set) var unownedSnapshot: Unmanaged<LayerSnapshot>
    /// The steps begun and not yet finished, innermost last.
    @exclusivity(unchecked) private var open = RecordBuffer<Int32>()
    /// The test container outlives every resolution through it, and so every use of this.
    private let test: Unmanaged<TestContainer>
    /// This recorder as a resolution calls it. It holds the recorder, which the test container
    /// lets go of with `detach()` as it goes.
    private(set) var reference: ObserverReference?
    /// `reference`, for handing to a resolution without reference counting.
    private(set) var unownedReference: Unmanaged<ObserverReference>?

    init(test: TestContainer, snapshot: LayerSnapshot) {
        self.test = .passUnretained(test)
        self.snapshot = snapshot
        unownedSnapshot = .passUnretained(snapshot)
        let reference = ObserverReference(self)
        self.reference = reference
        unownedReference = .passUnretained(reference)
    }

    /// Breaks the cycle between this recorder and its reference.
    func detach() {
        reference = nil
    }

    deinit {
        steps.deallocate()
        kept.deallocate()
        for object in live { object.release() }
        live.deallocate()
        hidden.deallocate()
        open.deallocate()
    }

    func willResolve(_ found: Found, path: @autoclosure () -> [ServiceKey]) {
        let entry = found.unmanagedEntry
        if _slowPath(found.origin == TestContainer.fakeOrigin) {
            test.takeUnretainedValue().fakes.noteUsed(entry.takeUnretainedValue().key)
        }
        if entry._withUnsafeGuaranteedRef(\.isStored) { hasStoredScopes = true }
        if _slowPath(kept.keep(entry)) { newlyUsed.append(entry._withUnsafeGuaranteedRef(\.id)) }
        let parent = open.last ?? -1
        open.append(Int32(truncatingIfNeeded: steps.count))
        steps.append(Step(entry: entry, origin: Int32(truncatingIfNeeded: found.origin), parent: parent, outcome: .pending))
    }

    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome) {
        guard !open.isEmpty else { return }
        let step = Int(truncatingIfNeeded: open.removeLast())
        switch outcome {
        case .created:
            steps[step].outcome = .created
            createdCount += 1
        case .cached: steps[step].outcome = .cached
        case .sharedInGraph:
            // Made earlier in this resolution, by a step that keeps it: numbered from that one.
            steps[step].outcome = .sharedInGraph
            return
        }
        // The registered type is `Service` itself whenever it was asked for by its type.
        if steps[step].unmanagedEntry.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.registeredClass })
            == ObjectIdentifier(Service.self)
        {
            // Through a raw pointer: a cast to `AnyObject` would copy, and so retain, the instance.
            let object = Unmanaged<AnyObject>.fromOpaque(unsafeBitCast(instance, to: UnsafeRawPointer.self))
            object._withUnsafeGuaranteedRef { object in
                noteObject(of: type(of: object), at: step)
                steps[step].object = ObjectIdentifier(object)
            }
            live.append(object.retain())
            return
        }
        let boxed = instance as Any
        if type(of: boxed) is AnyClass {
            noteObject(of: type(of: boxed), at: step)
            hidden.append((step, boxed))
        }
    }

    @inline(__always)
    private func noteObject(of objectType: Any.Type, at step: Int) {
        let identifier = ObjectIdentifier(objectType)
        steps[step].objectType = identifier
        let address = UInt(bitPattern: identifier)
        let bit: UInt64 = 1 << (UInt64(truncatingIfNeeded: address >> 4 ^ address >> 10) & 63)
        if objectClasses & bit != 0 { mayRepeatObjects = true }
        objectClasses |= bit
    }

    /// Tells apart the objects behind a protocol whose numbers depend on which object they are:
    /// one found cached, one a stored scope keeps, and one that may be another step's object.
    private func identifyHiddenObjects() {
        for (index, instance) in hidden {
            let type = steps[index].objectType
            let mayBeShared = steps.indices.contains { $0 != index && steps[$0].objectType == type }
            guard steps[index].outcome == .cached || steps[index].entry.unsafelyUnwrapped.isStored || mayBeShared
            else { continue }
            steps[index].object = ObjectIdentifier(instance as AnyObject)
        }
        hidden.removeAll()
    }

    func didFail(_ key: ServiceKey, error: any Error) {
        let identifier = (error as? ResolutionError)?.identifier ?? "factory-failed"
        // A missing registration fails before any step began; anything else ends the open step.
        if let last = open.last, steps[Int(last)].entry?.key == key, !isMissing(error, key) {
            _ = open.removeLast()
            steps[Int(last)].outcome = .failed
            failures[Int(last)] = (key, identifier)
        } else {
            failures[steps.count] = (key, identifier)
            steps.append(Step(entry: nil, origin: 0, parent: open.last ?? -1, outcome: .failed))
        }
    }

    func resolutionEnded() {
        open.removeAll()
        if !hidden.isEmpty { identifyHiddenObjects() }
        for object in live { object.release() }
        live.removeAll()
        test._withUnsafeGuaranteedRef { $0.finished(self) }
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

    /// Empties the recorder for its next resolution, letting go of the registrations it noted.
    func reset() {
        steps.removeAll()
        // A test container whose base's ancestors keep changing would otherwise keep every
        // registration they ever had.
        if kept.count > 4096 { kept.removeAll() }
        if !failures.isEmpty { failures = [:] }
        if !staleDependencies.isEmpty { staleDependencies = [:] }
        hasStoredScopes = false
        createdCount = 0
        objectClasses = 0
        mayRepeatObjects = false
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
            if let entry = step.entry { history.counts[entry.key, default: 0] += 1 }
        }
        takeNewlyUsed(into: &history)
        var numbers = [Int?](repeating: nil, count: steps.count)
        number(with: &history.numbers) { numbers[$0] = $1 }

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
        takeNewlyUsed(into: &history)
        // Each instance made is new unless it is an object another step gave, which takes one of
        // the same class, or a kept one, which takes a stored scope.
        if !mayRepeatObjects && !hasStoredScopes {
            history.numbers.skip(createdCount)
        } else {
            number(with: &history.numbers) { _, _ in }
        }
    }

    private func takeNewlyUsed(into history: inout TraceHistory) {
        guard !newlyUsed.isEmpty else { return }
        for id in newlyUsed { history.used.insert(id) }
        newlyUsed.removeAll(keepingCapacity: true)
    }

    /// Numbers the instances the steps gave, in the order the steps finished, going on from
    /// `numbers`: a new instance gets the next number, an object seen before gets its number
    /// again, and so does an object shared within the graph.
    /// - Parameter record: Told each step's number, if it has one.
    private func number(with numbers: inout InstanceNumbers, _ record: (_ step: Int, _ number: Int) -> Void) {
        let count = steps.count
        // By step index, the number it gave (0 for none); the steps in the order they finished;
        // the steps begun and not yet finished, as they were when each step began.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * count) { scratch in
            let given = scratch.baseAddress.unsafelyUnwrapped
            let finished = given + count
            let unfinished = finished + count
            given.initialize(repeating: 0, count: count)
            var finishedCount = 0
            var depth = 0
            // Every step finishes after the steps below it, which follow it in `steps`.
            for next in 0...count {
                let parent = next < count ? Int(steps[next].parent) : -1
                while depth > 0, next == count || unfinished[depth - 1] != parent {
                    depth -= 1
                    let index = unfinished[depth]
                    let number = number(of: index, given: given, finished: UnsafeBufferPointer(start: finished, count: finishedCount), &numbers)
                    given[index] = number
                    finished[finishedCount] = index
                    finishedCount += 1
                    if number != 0 { record(index, number) }
                }
                if next < count {
                    unfinished[depth] = next
                    depth += 1
                }
            }
        }
    }

    private func number(
        of index: Int, given: UnsafeMutablePointer<Int>, finished: UnsafeBufferPointer<Int>,
        _ numbers: inout InstanceNumbers
    ) -> Int {
        switch steps[index].outcome {
        case .sharedInGraph:
            let entry = steps[index].entry.unsafelyUnwrapped
            // Only an object is the same instance again; a value shared is a copy.
            var maker = index - 1
            while maker >= 0, steps[maker].unmanagedEntry?.toOpaque() != Unmanaged.passUnretained(entry).toOpaque()
                || steps[maker].outcome != .created
            {
                maker -= 1
            }
            return maker >= 0 && steps[maker].objectType != nil ? given[maker] : 0
        case .created, .cached:
            let isNew = steps[index].outcome == .created
            guard let object = steps[index].object else { return isNew ? numbers.assign() : 0 }
            var number = 0
            // An object another step of this resolution gave is the same instance again (one
            // registration returning another's); any other made one is new.
            for earlier in finished.reversed() where steps[earlier].object == object && given[earlier] != 0 {
                number = given[earlier]
                break
            }
            if number == 0 { number = isNew ? numbers.assign() : numbers.number(ofStored: object) ?? 0 }
            if isNew, steps[index].entry.unsafelyUnwrapped.isStored { numbers.remember(stored: object, as: number) }
            return number
        case .pending, .failed:
            return 0
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
