import Wiring

/// The steps of one top-level resolution as its recorder is told them, in the order they began,
/// kept from one resolution to the next: a test container's recorder keeps one, and builds its
/// trace, counts and instance numbers from it only when a test reads them.
///
/// One resolution records into it at a time, on one thread; between resolutions its owner uses
/// it only under the layer stack's lock, which also hands it to the next resolution.
///
/// A step notes the identity of the object it gave without retaining it: an object that died
/// during the resolution may share its address with a later one, so identities of two made
/// objects are compared only where the later step's subtree gave the earlier object (one
/// registration returning another's), or where a store or the graph keeps it alive (see
/// `TraceReplay`).
final class StepLog: @unchecked Sendable {
    /// One step: the registration used (none when nothing was registered), where it came from,
    /// the step it was resolved for and what it gave.
    struct Step: Sendable {
        /// The registration used, by index among the kept ones; -1 when nothing was registered.
        let entryIndex: Int
        /// Where the lookup found it, in the source's numbering (see `Lookup.origin`).
        let origin: Int
        /// The index of the step this one was resolved for; -1 for a top-level request.
        let parent: Int
        /// What the step gave, once it finished.
        fileprivate(set) var outcome: Outcome
        /// The class of the object it gave; `nil` for a value, or before it gave anything.
        fileprivate(set) var objectType: ObjectIdentifier?
        /// The object it gave; `nil` for a value.
        fileprivate(set) var object: ObjectIdentifier?
    }

    /// How a step ended, or that it has not yet.
    enum Outcome: UInt8, Sendable {
        case pending, created, cached, sharedInGraph, failed
    }

    /// Whether steps keep the objects they make for ``takeMadeObjects(inside:)``; set as the log
    /// is handed to a resolution.
    var collectsMadeObjects: Bool {
        get { withState { $0.collectsMade } }
        set { withState { $0.collectsMade = newValue } }
    }

    /// Everything the log holds. One resolution at a time records into it, and its owner hands
    /// it on under a lock (see above).
    private var state = State()

    /// Runs `body` with the state, which it may change.
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try body(&state)
    }

    // MARK: Recording

    /// A step for the registration `found` refers to begins, below the open one.
    func begin(_ found: Lookup) {
        withState { $0.begin(found) }
    }

    /// The innermost open step gave `instance`, as `outcome` says.
    func finish<Service>(with instance: Service, outcome: ResolutionOutcome) {
        withState { $0.finish(with: instance, outcome: outcome) }
    }

    /// The step for `key` failed with `error`. A missing registration fails before any step
    /// began; anything else ends the open step.
    func fail(_ key: ServiceKey, error: any Error) {
        withState { $0.fail(key, error: error) }
    }

    /// The innermost open step makes its instance again: the one kept for it, `stale`, was made
    /// for layers that changed since.
    func noteRemade(_ stale: LayerSnapshot.StaleInstance) {
        withState { state in
            if let step = state.open.last { state.remade[step] = stale }
        }
    }

    /// `body` of the steps so far and the index of the innermost open one, if a step is open.
    func withOpenStep<Result>(_ body: (Recorded, Int) -> Result) -> Result? {
        withState { state in state.open.last.map { body(state.recorded, $0) } }
    }

    /// The steps that made their instance again since the log was last emptied (see
    /// ``noteRemade(_:)``), which the log holds no more.
    func takeRemade() -> [Int: LayerSnapshot.StaleInstance] {
        withState { state in
            defer { state.remade = [:] }
            return state.remade
        }
    }

    /// The resolution ended: tells what its owner needs to know to file the log.
    /// - Returns: Whether no step was recorded; whether a step used a kept scope; when
    ///   forgetting the steps needs nothing but skipping the numbers of the instances they made
    ///   (no object shared or kept, no registration used for the first time), how many they
    ///   made; and the objects the steps made, if the log collects them (see
    ///   `takeMadeObjects(inside:)`).
    /// - Parameter bound: The task-bound layers the resolution ran inside, top first.
    func endSummarized(inside bound: [OverrideLayer]) -> (
        isEmpty: Bool, hasStoredScopes: Bool, madeOnly: Int?,
        made: (objects: [(object: AnyObject, step: Int)], steps: MadeObjects.Steps)?
    ) {
        let (isEmpty, hasStoredScopes, madeOnly, hasMade) = withState { $0.endSummarized() }
        return (isEmpty, hasStoredScopes, madeOnly, hasMade ? takeMadeObjects(inside: bound) : nil)
    }

    private struct State {
        /// The steps, in the order they began.
        var steps: [Step] = []
        /// The steps begun and not yet finished, innermost last.
        var open: [Int] = []
        /// The registrations the steps used, in the order first used, until the log goes away
        /// (its owner replaces a log that keeps too many).
        var kept: [RegistrationEntry] = []
        /// By registration id modulo its size, the index in `kept` of the last entry kept with
        /// such an id; -1 for none. A collision only keeps an entry twice.
        var recent: [Int] = []
        /// How many of `kept` were reported by ``takeNewlyUsedIDs()``.
        var reportedCount = 0
        /// The key and error identifier of each failed step, by index.
        var failures: [Int: (key: ServiceKey, identifier: String)] = [:]
        /// Whether a step used a scope whose store keeps instances.
        var usedStoredScopes = false
        /// How many steps made an instance.
        var created = 0
        /// One bit per class of the objects the steps gave, by a hash of the class: while no
        /// two steps' objects may be of one class, no two are the same object.
        var objectClasses: UInt64 = 0
        /// Whether two steps may have given the same object.
        var mayRepeat = false
        /// The objects steps made, with the step that made each, held until the resolution ends
        /// (see `takeMadeObjects(inside:)`).
        var made: [(object: AnyObject, step: Int)] = []
        var collectsMade = false
        /// The steps that made an instance again because the one kept had gone stale, with it.
        var remade: [Int: LayerSnapshot.StaleInstance] = [:]

        /// The size of `recent`, a power of two: more than the registrations of most graphs.
        static let recentSize = 256

        var hasNewlyUsed: Bool { reportedCount < kept.count }

        var recorded: Recorded { Recorded(steps: steps, kept: kept, failures: failures) }

        /// Whether `step`'s registration hands out a value made before it was registered, which
        /// the test container did not make.
        func makesNothing(_ step: Step) -> Bool {
            step.entryIndex >= 0 && kept[step.entryIndex].options.isReadyInstance
        }

        mutating func endSummarized() -> (isEmpty: Bool, hasStoredScopes: Bool, madeOnly: Int?, hasMade: Bool) {
            // Left open only by a failure; emptying costs a call into the standard library.
            if !open.isEmpty { open.removeAll(keepingCapacity: true) }
            // Tracking leaks numbers every object made, which needs the steps.
            let madeOnly = mayRepeat || usedStoredScopes || hasNewlyUsed || collectsMade ? nil : created
            return (steps.isEmpty, usedStoredScopes, madeOnly, !made.isEmpty)
        }

        /// Empties the log when its instances need no numbering; see `StepLog.removeAllIfUnshared()`.
        mutating func removeAllIfUnshared() -> Int? {
            guard !mayRepeat, !usedStoredScopes, !collectsMade else { return nil }
            let made = created
            removeAll()
            return made
        }

        mutating func removeAll(collectingMade: Bool) {
            removeAll()
            if !remade.isEmpty { remade = [:] }
            collectsMade = collectingMade
        }

        mutating func removeAll() {
            steps.removeAll(keepingCapacity: true)
            if !failures.isEmpty { failures = [:] }
            usedStoredScopes = false
            created = 0
            objectClasses = 0
            mayRepeat = false
        }

        mutating func begin(_ found: Lookup) {
            if found.entry.policy.keepsInstances { usedStoredScopes = true }
            let entryIndex = index(of: found.entry)
            let parent = open.last ?? -1
            open.append(steps.count)
            steps.append(Step(entryIndex: entryIndex, origin: found.origin, parent: parent, outcome: .pending))
        }

        /// The index in `kept` of `entry`, keeping it first if need be.
        private mutating func index(of entry: RegistrationEntry) -> Int {
            if recent.isEmpty { recent = Array(repeating: -1, count: Self.recentSize) }
            let slot = entry.id & (Self.recentSize - 1)
            let index = recent[slot]
            if index >= 0, kept[index] === entry { return index }
            kept.append(entry)
            recent[slot] = kept.count - 1
            return kept.count - 1
        }

        mutating func finish<Service>(with instance: Service, outcome: ResolutionOutcome) {
            guard let step = open.popLast() else { return }
            switch outcome {
            case .created:
                steps[step].outcome = .created
                created += 1
            case .cached:
                steps[step].outcome = .cached
            case .sharedInGraph:
                // Made earlier in this resolution, by a step that keeps it: numbered from that one.
                steps[step].outcome = .sharedInGraph
                return
            }
            guard let (object, objectType) = StepLog.identity(of: instance) else { return }
            if collectsMade, outcome == .created, !makesNothing(steps[step]), let made = StepLog.object(in: instance) {
                self.made.append((made, step))
            }
            steps[step].objectType = objectType
            steps[step].object = object
            let address = UInt(bitPattern: objectType)
            let bit: UInt64 = 1 << (UInt64(truncatingIfNeeded: address >> 4 ^ address >> 10) & 63)
            if objectClasses & bit != 0 { mayRepeat = true }
            objectClasses |= bit
        }

        mutating func fail(_ key: ServiceKey, error: any Error) {
            let identifier = (error as? ResolutionError)?.identifier ?? "factory-failed"
            if let last = open.last, steps[last].entryIndex >= 0, kept[steps[last].entryIndex].key == key,
                !isMissing(error, key)
            {
                open.removeLast()
                steps[last].outcome = .failed
                failures[last] = (key, identifier)
            } else {
                failures[steps.count] = (key, identifier)
                steps.append(Step(entryIndex: -1, origin: 0, parent: open.last ?? -1, outcome: .failed))
            }
        }

        /// Whether `error` says that nothing is registered for `key`, at the depth of the open step.
        private func isMissing(_ error: any Error, _ key: ServiceKey) -> Bool {
            guard let error = error as? ResolutionError, case .notRegistered = error.reason else { return false }
            return error.key == key && error.path.count == open.count + 1
        }
    }

    /// The identity and class of the object a value is, if it is one; asked for as a class, it
    /// is one without opening an existential to find out, and is not retained.
    private static func identity<Value>(of instance: Value) -> (object: ObjectIdentifier, type: ObjectIdentifier)? {
        if let identity = identityOfClassInstance(instance) { return identity }
        guard let object = object(in: instance) else { return nil }
        return (ObjectIdentifier(object), ObjectIdentifier(type(of: object)))
    }

    /// The object a value is, if it is one. (Not `as AnyObject`: on Linux that first searches
    /// the type's conformances for a bridging one; a conditional cast only checks the class.)
    private static func object<Value>(in instance: Value) -> AnyObject? {
        let boxed = instance as Any
        guard type(of: boxed) is AnyClass else { return nil }
        return cast(boxed, to: AnyObject.self)
    }

    private static func cast<Value, Target>(_ value: Value, to: Target.Type) -> Target? { value as? Target }

    // MARK: Reading

    /// The steps recorded, for code that reads many: each call on the log is a call into the
    /// core with a closure, and reading the steps one call at a time (when each was a checked
    /// access) cost a recorded resolution more than recording them.
    var recorded: Recorded { withState { $0.recorded } }

    /// What the log recorded, as one value: the steps and what they refer to.
    struct Recorded {
        /// The steps, in the order they began.
        let steps: [Step]
        fileprivate let kept: [RegistrationEntry]
        fileprivate let failures: [Int: (key: ServiceKey, identifier: String)]

        /// The registration `step` used; `nil` when nothing was registered.
        func entry(of step: Step) -> RegistrationEntry? {
            step.entryIndex >= 0 ? kept[step.entryIndex] : nil
        }

        /// The key step `index` asked for.
        func key(at index: Int) -> ServiceKey {
            if let entry = entry(of: steps[index]) { return entry.key }
            guard let failure = failures[index] else {
                preconditionFailure("step \(index) has neither a registration nor a failure")
            }
            return failure.key
        }

        /// The identifier of the error step `index` failed with, if it failed.
        func failure(at index: Int) -> String? {
            failures[index]?.identifier
        }

        /// The steps below step `index`: they follow it, up to the first step outside it.
        func descendants(of index: Int) -> Range<Int> {
            var end = index + 1
            while end < steps.count, steps[end].parent >= index {
                end += 1
            }
            return index + 1..<end
        }
    }

    /// Whether a registration was first used since the last ``takeNewlyUsedIDs()``.
    var hasNewlyUsed: Bool { withState { $0.hasNewlyUsed } }

    /// The ids of the registrations first used since the last call: every registration a step
    /// used is kept, so these are all that were used and not yet reported.
    func takeNewlyUsedIDs() -> [Int] {
        withState { state in
            defer { state.reportedCount = state.kept.count }
            return state.kept[state.reportedCount...].map(\.id)
        }
    }

    /// How many registrations it keeps for the steps of this and later resolutions.
    var keptCount: Int { withState { $0.kept.count } }

    /// Empties the log when its instances need no numbering to be forgotten: every instance
    /// made was new, none an object another step gave nor one a store keeps.
    /// - Returns: How many instances the steps made; `nil`, leaving the log as it is, when
    ///   they need numbering.
    func removeAllIfUnshared() -> Int? {
        withState { $0.removeAllIfUnshared() }
    }

    /// The objects the steps made, each with its step, and the steps' keys and parents, from
    /// which the path that made each is read only when asked for (see `MadeObjects`); the log
    /// holds them no more.
    private func takeMadeObjects(
        inside bound: [OverrideLayer]
    ) -> (objects: [(object: AnyObject, step: Int)], steps: MadeObjects.Steps)? {
        guard let made = withState({ state -> [(object: AnyObject, step: Int)]? in
            guard !state.made.isEmpty else { return nil }
            defer { state.made.removeAll(keepingCapacity: true) }
            return state.made
        }) else { return nil }
        let recorded = recorded
        let steps = MadeObjects.Steps(
            keys: recorded.steps.indices.map(recorded.key(at:)), parents: recorded.steps.map(\.parent),
            madeInside: bound.map(\.id))
        return (made, steps)
    }

    /// Empties the log for the next resolution. The registrations stay kept for it (an owner
    /// whose registrations keep changing replaces a log that keeps too many).
    func removeAll() {
        withState { $0.removeAll() }
    }

    /// Empties the log for a resolution, whose steps keep the objects they make when
    /// `collectingMadeObjects`.
    func removeAll(collectingMadeObjects: Bool) {
        withState { $0.removeAll(collectingMade: collectingMadeObjects) }
    }
}
