import Wiring

/// Turning a recorder's log of steps into what the test container reports, once something
/// reads it: the trace tree, the counts, the registrations used, the instance numbers and the
/// notes on kept instances made again. Runs rarely (when a test reads the trace, the counts or the
/// reports), so it copies the steps into plain arrays and favours clarity over speed.
extension StepLog {
    /// Moves the recorded steps into `history`: counts, used registrations, instance numbers in
    /// order of creation and, if kept, the trace tree, with why kept instances were made again. Leaves the log
    /// empty.
    /// - Parameters:
    ///   - remade: The steps that made a kept instance again, and why, by index.
    ///   - keepsTree: Whether the steps go into the trace, or only into counts and numbers.
    ///   - snapshot: The layers the resolution looked up in, which name where overrides came from.
    ///   - test: The test that made the resolution, if known; coverage counts it for that test.
    func replay(
        into history: inout TraceHistory, remade: [Int: LayerSnapshot.StaleInstance], keepsTree: Bool,
        snapshot: LayerSnapshot, test: TestRun?
    ) {
        noteUsedRegistrations(in: &history, snapshot: snapshot, test: test)
        recorded.replay(
            into: &history, remade: remade, keepsTree: keepsTree, snapshot: snapshot,
            collectsMadeObjects: collectsMadeObjects)
        removeAll()
    }

    /// Moves the recorded steps into `history` without keeping a trace: what `clearTrace` does
    /// with steps nobody looked at. Registrations still count as used, and instance numbers go
    /// on from where they were; an instance a stored scope keeps keeps its number. Leaves the
    /// log empty.
    func forget(into history: inout TraceHistory, snapshot: LayerSnapshot, test: TestRun?) {
        noteUsedRegistrations(in: &history, snapshot: snapshot, test: test)
        // Each instance made is new unless it is an object another step gave, which takes one of
        // the same class, or a kept one, which takes a stored scope.
        if let made = removeAllIfUnshared() {
            history.numbers.skip(made)
            return
        }
        _ = recorded.numberInstances(into: &history, collectsMadeObjects: collectsMadeObjects)
        removeAll()
    }

    /// Marks every registration a step used as used: those first used since the last report.
    /// Coverage counts each for `test` (else the container's own): a recorder serves one test,
    /// so what it used first is all its test used.
    func noteUsedRegistrations(in history: inout TraceHistory, snapshot: LayerSnapshot, test: TestRun?) {
        guard hasNewlyUsed else { return }
        var newlyUsed = Set<Int>()
        for id in takeNewlyUsedIDs() {
            history.used.insert(id)
            newlyUsed.insert(id)
        }
        // Each was first used by a step of this resolution: the steps tell what each one is.
        let name = test?.name ?? history.unattributedTest
        let recorded = recorded
        for step in recorded.steps where !newlyUsed.isEmpty {
            guard let entry = recorded.entry(of: step), newlyUsed.remove(entry.id) != nil else { continue }
            if entry.options.isRefusal, entry.options.isLiveOnly {
                history.coverage.noteRefused(entry, by: name)
                continue
            }
            switch Recorded.source(of: step, entry, in: snapshot) {
            case .registration: history.coverage.noteResolved(entry, as: .registration, by: name)
            case .override, .module: history.coverage.noteResolved(entry, as: .override, by: name)
            case .fake: history.coverage.noteResolved(entry, as: .fake, by: name)
            case .implicit, .missing: break
            }
        }
    }

}

/// Reading the steps, once the log handed them over in one access.
extension StepLog.Recorded {
    typealias Step = StepLog.Step

    /// The counts, instance numbers and, if kept, the trace tree of these steps, into `history`,
    /// with why kept instances were made again (`remade`, by step).
    func replay(
        into history: inout TraceHistory, remade: [Int: LayerSnapshot.StaleInstance], keepsTree: Bool,
        snapshot: LayerSnapshot, collectsMadeObjects: Bool
    ) {
        var children = [[Int]](repeating: [], count: steps.count)
        var roots: [Int] = []
        for (index, step) in steps.enumerated() {
            if step.parent < 0 { roots.append(index) } else { children[Int(step.parent)].append(index) }
            if let entry = entry(of: step) { history.counts[entry.key, default: 0] += 1 }
        }
        let numbers = numberInstances(into: &history, collectsMadeObjects: collectsMadeObjects)

        guard keepsTree else { return }

        func makeNode(_ index: Int) -> ResolutionTrace.Node {
            let step = steps[index]
            var node: ResolutionTrace.Node
            if let entry = entry(of: step) {
                node = ResolutionTrace.Node(
                    key: entry.key, scope: entry.scope, source: Self.source(of: step, entry, in: snapshot),
                    outcome: .created, entryID: entry.id)
                node.isolation = entry.factoryIsolation
            } else {
                node = ResolutionTrace.Node(
                    key: key(at: index), scope: nil, source: .missing, outcome: .created, entryID: nil)
            }
            switch step.outcome {
            case .pending, .created: node.outcome = .created
            case .cached: node.outcome = .cached
            case .sharedInGraph: node.outcome = .sharedInGraph
            case .failed: node.outcome = .failed(failure(at: index) ?? "factory-failed")
            }
            node.instance = numbers[index] != 0 ? numbers[index] : nil
            if let stale = remade[index] {
                node.notes = [
                    "made again: \(stale.dependency) is now answered by \(stale.answeredIn) (\(stale.site)), "
                        + "not as when the one kept in layer \"\(stale.keptIn)\" was made"
                ]
            }
            node.children = children[index].map(makeNode)
            return node
        }
        history.roots.append(contentsOf: roots.map(makeNode))
    }

    /// Numbers the instances the steps gave (see `number(with:comparisons:_:)`) and, when the log
    /// collects made objects, remembers the numbers of those; returns each step's number.
    func numberInstances(into history: inout TraceHistory, collectsMadeObjects: Bool) -> [Int] {
        let numbers = number(with: &history.numbers, comparisons: &history.numberingComparisons)
        if collectsMadeObjects { noteMadeNumbers(numbers, in: &history) }
        return numbers
    }

    /// Remembers the number of every object the steps made, by identity, for
    /// `leakedInstances()`: the newest object at an address is the one alive.
    private func noteMadeNumbers(_ numbers: [Int], in history: inout TraceHistory) {
        for (index, step) in steps.enumerated() where step.outcome == .created && numbers[index] != 0 {
            if let object = step.object { history.madeNumbers[object] = numbers[index] }
        }
    }

    /// Numbers the instances `steps` gave, in the order the steps finished, going on from
    /// `numbers`: a new instance gets the next number, an object seen before gets its number
    /// again, and so does an object shared within the graph. A resolution of many steps has
    /// what each step is compared with indexed first (see `StepIndex`), so that numbering it is
    /// linear; a small one (most are) scans for it, which costs less than indexing.
    /// - Parameters:
    ///   - comparisons: Counts the steps each step was compared with, so that a test can check
    ///     that numbering stays linear.
    /// - Returns: By step, the number of the instance it gave; 0 for none.
    private func number(with numbers: inout InstanceNumbers, comparisons: inout Int) -> [Int] {
        let count = steps.count
        // By step index, the number it gave (0 for none); the steps in the order they finished;
        // the steps begun and not yet finished, as they were when each step began.
        var given = [Int](repeating: 0, count: count)
        var finished: [Int] = []
        finished.reserveCapacity(count)
        var unfinished: [Int] = []
        unfinished.reserveCapacity(count)
        let index = count > StepIndex.indexedAbove ? StepIndex(steps, entry: entry(of:)) : nil
        var numbered = ObjectFilter()
        // Every step finishes after the steps below it, which follow it in `steps`.
        for next in 0...count {
            let parent = next < count ? Int(steps[next].parent) : -1
            while let innermost = unfinished.last, next == count || innermost != parent {
                unfinished.removeLast()
                let number = number(
                    of: innermost, given: given, finished: finished, index: index, numbered: numbered,
                    &numbers, &comparisons)
                given[innermost] = number
                finished.append(innermost)
                if number != 0 {
                    index?.note(innermost, gave: steps[innermost].object)
                    if let object = steps[innermost].object { numbered.insert(object) }
                }
            }
            if next < count { unfinished.append(next) }
        }
        return given
    }

    /// The number of the instance step `index` gave, given the numbers of the steps that
    /// finished before it (`finished`, in that order); 0 for none.
    private func number(
        of index: Int, given: [Int], finished: [Int], index stepIndex: StepIndex?,
        numbered: ObjectFilter, _ numbers: inout InstanceNumbers, _ comparisons: inout Int
    ) -> Int {
        switch steps[index].outcome {
        case .sharedInGraph:
            // Only an object is the same instance again; a value shared is a copy.
            guard let maker = stepIndex.map({ $0.makers[index] }) ?? maker(of: index, &comparisons) else {
                return 0
            }
            return steps[maker].objectType != nil ? given[maker] : 0
        case .created, .cached:
            let isNew = steps[index].outcome == .created
            guard let object = steps[index].object else { return isNew ? numbers.assign() : 0 }
            var number = 0
            // An object another step of this resolution gave is the same instance again (one
            // registration returning another's, below it; or one a store or the graph keeps);
            // any other made one is new: the earlier object may have died, and this one taken
            // its address (the log does not keep objects alive).
            // Most objects no earlier step gave: the filter says so without a scan.
            let candidates = stepIndex?.finished(giving: object) ?? (numbered.mayContain(object) ? finished : [])
            for earlier in candidates.reversed() {
                comparisons += 1
                guard steps[earlier].object == object, given[earlier] != 0 else { continue }
                // One object has one class: the same address with another class is another object.
                guard steps[earlier].objectType == steps[index].objectType else { continue }
                guard !isNew || isStep(earlier, below: index, stepIndex) || isKeptAlive(steps[earlier]) else { continue }
                number = given[earlier]
                break
            }
            if number == 0 { number = isNew ? numbers.assign() : numbers.number(ofStored: object) ?? 0 }
            if isNew, entry(of: steps[index])?.policy.keepsInstances == true {
                numbers.remember(stored: object, as: number)
            }
            return number
        case .pending, .failed:
            return 0
        }
    }

    /// Whether step `step` is below step `ancestor`.
    private func isStep(_ step: Int, below ancestor: Int, _ stepIndex: StepIndex?) -> Bool {
        step > ancestor && step < stepIndex.map { $0.subtreeEnd[ancestor] } ?? descendants(of: ancestor).upperBound
    }

    /// The nearest earlier step of the registration of step `index` that made an instance.
    private func maker(of index: Int, _ comparisons: inout Int) -> Int? {
        let registration = entry(of: steps[index])
        var maker = index - 1
        while maker >= 0, steps[maker].outcome != .created || entry(of: steps[maker]) !== registration {
            maker -= 1
        }
        comparisons += index - maker
        return maker >= 0 ? maker : nil
    }

    /// Whether the object a step gave stays alive for the rest of its resolution: one a store
    /// keeps (and found there), or one the resolution's graph keeps.
    private func isKeptAlive(_ step: Step) -> Bool {
        guard let entry = entry(of: step) else { return false }
        return step.outcome != .created || (entry.policy.keepsInstances && !entry.policy.holdsWeakly)
            || entry.policy.sharedWithinResolve
    }

    /// Where the registration a step used came from, as the trace shows it.
    static func source(
        of step: Step, _ entry: RegistrationEntry, in snapshot: LayerSnapshot
    ) -> ResolutionTrace.Source {
        if entry.options.isImplicit { return .implicit }
        // Hidden by a module replacement: nothing answers it.
        if entry.options.isRefusal, !entry.options.isLiveOnly { return .missing }
        if step.origin == LayerSnapshot.fakeOrigin || snapshot.isFake(entry) { return .fake(entry.site) }
        // A step that found its registration in the merged registry does not know its layer.
        let origin = step.origin != 0 ? Int(step.origin) : snapshot.origin(of: entry)
        if origin != 0, let layer = snapshot.layerName(of: origin) {
            if let replacement = snapshot.replacement(making: entry, inLayer: origin) {
                return .module(
                    name: replacement.module.name, replaces: replacement.replaces.name, layer: layer, site: entry.site)
            }
            return .override(layer: layer, site: entry.site)
        }
        return .registration(entry.site)
    }
}
