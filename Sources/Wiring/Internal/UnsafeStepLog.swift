/// The steps of one top-level resolution as its observer is told them, in the order they began,
/// in memory kept from one resolution to the next: a test container's recorder keeps one, and
/// builds its trace, counts and instance numbers from it only when a test reads them.
///
/// Recording a step is one call that retains nothing and checks nothing at run time: the
/// exclusivity checks of a class's stored properties, the copy-on-write checks of arrays and a
/// retain and a release of the registration per step cost, in the test support, several times
/// the rest of recording it. Reading it back is safe: indices are checked, entries come back
/// retained.
///
/// Invariants:
/// - One resolution records into it, on one thread at a time; between resolutions its owner
///   uses it only under a lock, which also hands it to the next resolution.
/// - Each registration a step refers to is retained once, by `kept`, until the log goes away
///   (its owner replaces a log that keeps too many), and a step refers to it by its index there
///   (checked in debug builds).
/// - A step notes the identity of the object it gave without retaining it: an object that died
///   during the resolution may share its address with a later one, so identities of two made
///   objects are compared only where the later step's subtree gave the earlier object (one
///   registration returning another's), or where a store or the graph keeps it alive (see
///   `TraceReplay`). Retaining each object until the resolution ended cost a recorded
///   transient chain 37 ns of its 440.
package final class UnsafeStepLog: @unchecked Sendable {
    /// One step: the registration used (none when nothing was registered), where it came from,
    /// the step it was resolved for and what it gave.
    package struct Step: Sendable {
        /// The registration used, by index among the kept ones; -1 when nothing was registered.
        package let entryIndex: Int32
        /// Where the lookup found it, in the source's numbering (see `Lookup.origin`).
        package let origin: Int32
        /// The index of the step this one was resolved for; -1 for a top-level request.
        package let parent: Int32
        /// What the step gave, once it finished.
        package fileprivate(set) var outcome: Outcome
        /// The class of the object it gave; `nil` for a value, or before it gave anything.
        package fileprivate(set) var objectType: ObjectIdentifier?
        /// The object it gave, if its number may depend on which object it is.
        package fileprivate(set) var object: ObjectIdentifier?
    }

    /// How a step ended, or that it has not yet.
    package enum Outcome: UInt8, Sendable {
        case pending, created, cached, sharedInGraph, failed
    }

    /// A registration the steps used, retained once (`entry` holds +1).
    private struct Kept {
        /// The registration, retained once for as long as it is kept.
        let entry: Unmanaged<RegistrationEntry>
        /// Its identity: a change of options replaces the entry under the same id.
        let identity: ObjectIdentifier
        /// Its id, which the table of recent entries is keyed by.
        let id: Int
        /// The registered type when it is a class: then an instance asked for as exactly that
        /// type is an object, which `finish` reads without a cast.
        let registeredClass: ObjectIdentifier?
        /// Whether its scope's store keeps instances.
        let keepsInstances: Bool
    }

    // One resolution at a time records here (see the invariants above), so the run-time
    // exclusivity checks of these properties would only cost time on every step.
    /// The steps, in the order they began.
    @exclusivity(unchecked) private var steps = UnsafeGrowableBuffer<Step>()
    /// The steps begun and not yet finished, innermost last.
    @exclusivity(unchecked) private var open = UnsafeGrowableBuffer<Int32>()
    /// The registrations the steps used, in the order first used, until the owner forgets them.
    @exclusivity(unchecked) private var kept = UnsafeGrowableBuffer<Kept>()
    /// By registration id modulo its size, the index in `kept` of the last entry kept with such
    /// an id; -1 for none. A collision only keeps an entry twice.
    @exclusivity(unchecked) private var recent = UnsafeGrowableBuffer<Int32>()
    /// The size of `recent`, a power of two: more than the registrations of most graphs.
    private static let recentSize = 256
    /// How many of `kept` were reported by ``takeNewlyUsedIDs()``.
    @exclusivity(unchecked) private var reportedCount = 0
    /// Every object the steps gave (+1 each), until the resolution ends.
    /// The instances behind a protocol, which only a costly cast tells apart, by step, until the
    /// resolution ends: then only those whose number may depend on it are told apart.
    @exclusivity(unchecked) private var hidden: [(step: Int, instance: Any)] = []
    /// The key and error identifier of each failed step, by index.
    @exclusivity(unchecked) private var failures: [Int: (key: ServiceKey, identifier: String)] = [:]
    /// Whether a step used a scope whose store keeps instances.
    @exclusivity(unchecked) private var usedStoredScopes = false
    /// How many steps made an instance.
    @exclusivity(unchecked) private var created = 0
    /// One bit per class of the objects the steps gave, by a hash of the class: while no two
    /// steps' objects may be of one class, no two are the same object.
    @exclusivity(unchecked) private var objectClasses: UInt64 = 0
    /// Whether two steps may have given the same object.
    @exclusivity(unchecked) private var mayRepeat = false

    /// An empty log.
    package init() {}

    deinit {
        end()
        steps.deallocate()
        open.deallocate()
        forgetEntries()
        kept.deallocate()
        recent.deallocate()
    }

    // MARK: Recording

    /// A step for the registration `found` refers to begins, below the open one.
    package func begin(_ found: Found) {
        let entryIndex = index(of: found)
        if kept[Int(entryIndex)].keepsInstances { usedStoredScopes = true }
        let parent = open.last ?? -1
        open.append(Int32(truncatingIfNeeded: steps.count))
        steps.append(Step(
            entryIndex: entryIndex, origin: Int32(truncatingIfNeeded: found.origin), parent: parent, outcome: .pending))
    }

    /// The index in `kept` of the registration `found` refers to, keeping it first if need be.
    @inline(__always)
    private func index(of found: Found) -> Int32 {
        // The caller of the step holds the entry (see `Found`): read without retaining it.
        let (id, identity) = found.unownedEntry.withObject { ($0.id, ObjectIdentifier($0)) }
        let slot = id & (Self.recentSize - 1)
        if !recent.isEmpty {
            let index = recent[slot]
            if index >= 0, kept[Int(index)].identity == identity { return index }
        }
        return keep(found.unownedEntry, at: slot)
    }

    @inline(never)
    private func keep(_ entry: UnsafeUnownedReference<RegistrationEntry>, at slot: Int) -> Int32 {
        if recent.isEmpty {
            for _ in 0..<Self.recentSize { recent.append(-1) }
        }
        let index = Int32(truncatingIfNeeded: kept.count)
        let kept = entry.withObject { entry in
            Kept(
                entry: Unmanaged.passUnretained(entry).retain(), identity: ObjectIdentifier(entry), id: entry.id,
                registeredClass: entry.registeredClass, keepsInstances: entry.policy.keepsInstances)
        }
        self.kept.append(kept)
        recent[slot] = index
        return index
    }

    /// The innermost open step gave `instance`, as `outcome` says.
    package func finish<Service>(with instance: Service, outcome: ResolutionOutcome) {
        guard !open.isEmpty else { return }
        let step = Int(truncatingIfNeeded: open.removeLast())
        switch outcome {
        case .created:
            steps[step].outcome = .created
            created += 1
        case .cached: steps[step].outcome = .cached
        case .sharedInGraph:
            // Made earlier in this resolution, by a step that keeps it: numbered from that one.
            steps[step].outcome = .sharedInGraph
            return
        }
        let entryIndex = Int(steps[step].entryIndex)
        // Asked for as exactly the class it registers, the instance is an object: read it
        // without a cast (the registration proves `Service` a class; checked in debug builds).
        if entryIndex >= 0, let registered = kept[entryIndex].registeredClass,
            registered == ObjectIdentifier(Service.self)
        {
            assert(Service.self is AnyClass, "a registered class that is not a class")
            let object = Unmanaged<AnyObject>.fromOpaque(unsafeBitCast(instance, to: UnsafeRawPointer.self))
            object._withUnsafeGuaranteedRef { object in
                noteObject(of: type(of: object), at: step)
                steps[step].object = ObjectIdentifier(object)
            }
            return
        }
        let boxed = instance as Any
        if type(of: boxed) is AnyClass {
            noteObject(of: type(of: boxed), at: step)
            hidden.append((step, boxed))
        }
    }

    /// Notes the class of a step's object, and whether another step's may be the same one.
    @inline(__always)
    private func noteObject(of objectType: Any.Type, at step: Int) {
        let identifier = ObjectIdentifier(objectType)
        steps[step].objectType = identifier
        let address = UInt(bitPattern: identifier)
        let bit: UInt64 = 1 << (UInt64(truncatingIfNeeded: address >> 4 ^ address >> 10) & 63)
        if objectClasses & bit != 0 { mayRepeat = true }
        objectClasses |= bit
    }

    /// The step for `key` failed with `error`. A missing registration fails before any step
    /// began; anything else ends the open step.
    package func fail(_ key: ServiceKey, error: any Error) {
        let identifier = (error as? ResolutionError)?.identifier ?? "factory-failed"
        if let last = open.last, entry(of: steps[Int(last)])?.key == key, !isMissing(error, key) {
            _ = open.removeLast()
            steps[Int(last)].outcome = .failed
            failures[Int(last)] = (key, identifier)
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

    /// The resolution ended: lets go of its objects, and tells what its owner needs to know to
    /// file the log.
    /// - Returns: Whether no step was recorded; whether a step used a kept scope; and, when
    ///   forgetting the steps needs nothing but skipping the numbers of the instances they made
    ///   (no object shared or kept, no registration used for the first time), how many they made.
    package func endSummarized() -> (isEmpty: Bool, hasStoredScopes: Bool, madeOnly: Int?) {
        end()
        let madeOnly = mayRepeat || usedStoredScopes || hasNewlyUsed ? nil : created
        return (steps.isEmpty, usedStoredScopes, madeOnly)
    }

    /// The resolution ended: tells apart the objects that need it, and lets go of them all.
    private func end() {
        open.removeAll()
        if !hidden.isEmpty { identifyHiddenObjects() }
    }

    /// Tells apart the objects behind a protocol whose numbers depend on which object they are:
    /// one found cached, one a stored scope keeps, and one that may be another step's object.
    private func identifyHiddenObjects() {
        for (index, instance) in hidden {
            let type = steps[index].objectType
            let mayBeShared = (0..<steps.count).contains { $0 != index && steps[$0].objectType == type }
            let isKept = steps[index].entryIndex >= 0 && kept[Int(steps[index].entryIndex)].keepsInstances
            guard steps[index].outcome == .cached || isKept || mayBeShared else { continue }
            steps[index].object = Self.object(in: instance).map(ObjectIdentifier.init)
        }
        hidden.removeAll(keepingCapacity: true)
    }

    /// The object a boxed class instance is. (Not `as AnyObject`: on Linux that first searches
    /// the type's conformances for a bridging one; a conditional cast only checks the class.)
    private static func object(in instance: Any) -> AnyObject? {
        func cast<Target>(_ value: Any, to: Target.Type) -> Target? { value as? Target }
        return cast(instance, to: AnyObject.self)
    }

    // MARK: Reading

    /// How many steps were recorded.
    package var count: Int { steps.count }

    /// The index of the innermost step that began and has not finished, if any.
    package var openStep: Int? { open.last.map { Int($0) } }


    /// Step `index`, which must be below ``count``.
    package subscript(index: Int) -> Step {
        precondition(index >= 0 && index < steps.count, "step \(index) out of 0..<\(steps.count)")
        return steps[index]
    }

    /// The registration `step` used; `nil` when nothing was registered.
    package func entry(of step: Step) -> RegistrationEntry? {
        guard step.entryIndex >= 0 else { return nil }
        precondition(Int(step.entryIndex) < kept.count, "a step of another log")
        return kept[Int(step.entryIndex)].entry.takeUnretainedValue()
    }

    /// The key step `index` asked for.
    package func key(at index: Int) -> ServiceKey {
        entry(of: self[index])?.key ?? failures[index]!.key
    }

    /// The identifier of the error step `index` failed with, if it failed.
    package func failure(at index: Int) -> String? {
        failures[index]?.identifier
    }

    /// The steps below step `index`: they follow it, up to the first step outside it.
    package func descendants(of index: Int) -> Range<Int> {
        var end = index + 1
        while end < steps.count, steps[end].parent >= index {
            end += 1
        }
        return index + 1..<end
    }

    /// Whether a registration was first used since the last ``takeNewlyUsedIDs()``.
    package var hasNewlyUsed: Bool { reportedCount < kept.count }

    /// The ids of the registrations first used since the last call: every registration a step
    /// used is kept, so these are all that were used and not yet reported.
    package func takeNewlyUsedIDs() -> [Int] {
        defer { reportedCount = kept.count }
        return (reportedCount..<kept.count).map { kept[$0].id }
    }

    /// How many registrations it keeps for the steps of this and later resolutions.
    package var keptCount: Int { kept.count }

    /// Empties the log when its instances need no numbering to be forgotten: every instance
    /// made was new, none an object another step gave nor one a store keeps.
    /// - Returns: How many instances the steps made; `nil`, leaving the log as it is, when
    ///   they need numbering.
    package func removeAllIfUnshared() -> Int? {
        guard !mayRepeat, !usedStoredScopes else { return nil }
        let made = created
        removeAll()
        return made
    }

    /// Empties the log for the next resolution. The registrations stay kept for it (an owner
    /// whose registrations keep changing replaces a log that keeps too many).
    package func removeAll() {
        steps.removeAll()
        if !failures.isEmpty { failures = [:] }
        usedStoredScopes = false
        created = 0
        objectClasses = 0
        mayRepeat = false
    }

    /// Lets go of the registrations the steps used; only while no step refers to one.
    private func forgetEntries() {
        assert(steps.isEmpty, "registrations forgotten while steps refer to them")
        while !kept.isEmpty { kept.removeLast().entry.release() }
        recent.removeAll()
        reportedCount = 0
    }
}
