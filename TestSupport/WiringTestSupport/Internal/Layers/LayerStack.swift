import Wiring

/// The layers of a test container, top first: those `withOverrides` binds to the running task,
/// the pushed ones, and the root (what `register` adds); then the base and the fakes. Keeps the
/// ``LayerSnapshot`` resolutions look up in, and takes a new one only once something changed,
/// so a top-level resolve neither locks every layer nor allocates.
final class LayerStack: Sendable {
    /// The app's container, below every layer.
    let base: Container
    /// Default factories, used only where neither a layer nor the base registers a key.
    let fakes: Fakes
    /// The bottom layer: what `register` adds, and the instances made while no layer is pushed.
    let root: OverrideLayer
    /// The mutant of the app's wiring resolutions here see (`WIRING_MUTANT`), if any.
    let mutant: WiringMutant?
    /// Every instance a resolution here keeps, one shelf per layer.
    let instances = InstanceStore()
    /// Counts changes to the base, the layers' overrides and the fakes; they all report to it.
    private let changes: ChangeSignal
    private let state: LockedState<State>

    /// What the lock guards; shared with ``ChangeSignal``, which counts changes into it.
    struct State {
        /// The pushed layers, bottom first.
        var pushed: [OverrideLayer] = []
        /// Counts changes to the layers, their overrides, the base and the fakes.
        var revision = 0
        /// The ids of the `withOverrides` layers of this stack bound to tasks now, in any task.
        var boundLayerIDs: [Int] = []
        /// The layers as the last resolution saw them; reused while nothing changed.
        var snapshot: LayerSnapshot?
        /// The revision `snapshot` describes, while no layer is bound to a task; else -1.
        var snapshotRevision = -1
        /// The snapshots of tasks inside `withOverrides`, by their innermost bound layer: tests
        /// running in parallel each keep theirs, instead of taking turns replacing one.
        var boundSnapshots: [ObjectIdentifier: LayerSnapshot] = [:]
        /// Set once the test container is gone: changes are no longer counted.
        var isClosed = false
        /// The trace store's recorders. Kept under this lock too: a recorded resolution starts
        /// with the current snapshot and an idle recorder, and one lock for both costs half of two.
        var recorders = RecorderPool()
        /// What the isolation sentinel watches: the test this container was made for, and
        /// layers pushed during a test.
        var sentinel = ContainerSentinel()
        /// How to tell the running test, as the helper modules installed it (see ``RunningTests``).
        var identify: RunningTests.Identify?
        /// The shelf of the layer popped or unbound last, emptied then: a resolution begun before,
        /// still running through it, keeps there what it makes, so that a singleton it and another
        /// such resolution need is made once. Closed at the next pop or unbind (what it keeps goes
        /// then), so that none stays open for good.
        var lastEnded: Int?
    }

    /// Layers bound to a task by `withOverrides`, innermost last, for any layer stack.
    @TaskLocal private static var taskLayers: [TaskLayer] = []

    /// A `withOverrides` layer and the stack it belongs to.
    private struct TaskLayer: Sendable {
        let stack: ObjectIdentifier
        let layer: OverrideLayer
    }

    /// A stack with only the root layer over `base`, which it never modifies.
    init(base: Container, mutant: WiringMutant? = nil) {
        self.mutant = mutant
        let state = LockedState(State(), rank: .layerStack)
        let changes = ChangeSignal(counting: state, instances: instances)
        self.base = base
        self.state = state
        self.changes = changes
        let fakes = Fakes(changes: changes, base: base)
        self.fakes = fakes
        root = OverrideLayer(name: "test", base: base, changes: changes, fakes: fakes, isRoot: true)
        instances.openShelf(root.id)
        base.observeChanges(changes)
        RunningTests.subscribe(ObjectIdentifier(self), keepingCopyIn: state)
    }

    deinit {
        RunningTests.unsubscribe(ObjectIdentifier(self))
        // The observed containers keep the signal, and through it this state, until their next
        // change: let go of the layers and their instances now, outside the lock (a deinit may
        // well register or resolve something).
        let dropped = state.withLock { state in
            defer {
                state = State()
                state.isClosed = true
            }
            return state
        }
        // The signal keeps the store: empty it now.
        let instances = instances.removeAll()
        withExtendedLifetime((dropped, instances)) {}
    }

    // MARK: Pushing and popping

    /// Pushes a new, empty layer on top of the pushed ones, noting the test that pushes it.
    /// A layer still pushed when the test that pushed it ends fails that test.
    func push(_ name: String, at site: RegistrationSite? = nil) -> OverrideLayer {
        let pusher = RunningTests.current.flatMap { $0.isEnded ? nil : $0 }
        let layer = OverrideLayer(
            name: name, base: base, changes: changes, fakes: fakes, warningLog: root.warningLog,
            pushedDuring: pusher, pushedAt: site)
        instances.openShelf(layer.id)
        state.withLock { state in
            state.pushed.append(layer)
            state.revision += 1
            state.sentinel.watch(pushed: state.pushed)
        }
        pusher?.atScopeEnd { [weak self, weak layer] in
            guard let self, let layer, self.state.withLock({ $0.pushed.contains { $0 === layer } }) else { return }
            self.reportLeftPushed([layer])
        }
        return layer
    }

    /// Removes the last pushed layer and frees the instances made while it was on top.
    func pop() -> OverrideLayer? {
        let (popped, toClose) = state.withLock { state in
            defer {
                state.revision += 1
                state.sentinel.watch(pushed: state.pushed)
            }
            let popped = state.pushed.popLast()
            return (popped, popped.map { Self.noteEnded($0, in: &state) } ?? [])
        }
        empty(popped.map { [$0.id] } ?? [])
        empty(toClose, closing: true)
        return popped
    }

    /// Notes `layer` as the last ended, returning the shelf ended before it, to close.
    private static func noteEnded(_ layer: OverrideLayer, in state: inout State) -> [Int] {
        defer { state.lastEnded = layer.id }
        return state.lastEnded.map { [$0] } ?? []
    }

    /// Frees what the shelves `numbers` keep (what was made while their layers were on top, as
    /// popping promises), outside the store's lock: a deinit may well resolve something.
    /// `closing` also closes them, so that nothing is kept there any more.
    private func empty(_ numbers: [Int], closing: Bool = false) {
        let dropped = numbers.flatMap { instances.removeShelf($0, closing: closing) }
        withExtendedLifetime(dropped) {}
    }

    /// Lets go of the instances every layer keeps, the layers themselves staying: what a leak
    /// check does before it looks at what is still alive.
    func dropKeptInstances() {
        // With what resolutions still running through the last ended layer kept there.
        let ended = state.withLock { $0.lastEnded }
        empty((snapshot().layers + ownLayers).map(\.id) + (ended.map { [$0] } ?? []))
    }

    /// A layer over this stack's base that tells it of changes to its overrides.
    func makeLayer(_ name: String) -> OverrideLayer {
        OverrideLayer(name: name, base: base, changes: changes, fakes: fakes, warningLog: root.warningLog)
    }

    /// The layers a lookup sees, top first: this task's, the pushed ones, then the root.
    var activeLayers: [OverrideLayer] {
        snapshot().layers
    }

    /// The root and the pushed layers, bottom first, without those bound to tasks.
    var ownLayers: [OverrideLayer] {
        [root] + state.withLock { $0.pushed }
    }

    /// Declares this stack's test container made for `test` alone, by `maker`: resolving through
    /// it once that test ended is reported.
    func declareOwner(_ test: TestRun, madeBy maker: String) {
        state.withLock { $0.sentinel.owner = ContainerSentinel.Owner(test: test.name, maker: maker) }
        root.warningLog.owner = test
        test.atScopeEnd { [weak self] in self?.reportLayersLeftPushed() }
        let state = self.state
        test.whenEnded {
            state.withLock { state in
                state.sentinel.ownerHasEnded = true
                state.sentinel.watch(pushed: state.pushed)
            }
        }
    }

    /// Reports an `unbalanced-push` finding for each layer still pushed, to the test that pushed
    /// it: what a test container does when it is freed, or when the test it was made for ends.
    func reportLayersLeftPushed() {
        reportLeftPushed(state.withLock { $0.pushed })
    }

    private func reportLeftPushed(_ pushed: [OverrideLayer]) {
        for layer in pushed {
            root.warningLog.note(.unbalancedPush(layer), culprit: layer.pushedDuring)
        }
    }

    /// Where overrides go: this task's innermost `withOverrides` layer, else the last pushed,
    /// else the root. Found without taking a snapshot, which would read every layer's registry
    /// and so make the next override copy it.
    var topLayer: OverrideLayer {
        let identifier = ObjectIdentifier(self)
        let own = Self.taskLayers.filter { $0.stack == identifier }.map(\.layer)
        return state.withLock { state in
            // A task that outlived a `withOverrides` still lists its layer, done with: the one it
            // is still inside takes the override; outside them all, the last, which no resolve
            // sees any more, so that it reaches no other test.
            own.last { state.boundLayerIDs.contains($0.id) } ?? own.last ?? state.pushed.last
        } ?? root
    }

    /// Whether `container` is the base or one of its parents: resetting it is what the app's code
    /// does, not the test's.
    func wraps(_ container: Container) -> Bool {
        var current: Container? = base
        while let candidate = current {
            if candidate === container { return true }
            current = candidate.parent
        }
        return false
    }

    /// Drops the instances every active layer keeps for `scope`, as the same reset on the base
    /// would: not those of its parents' registrations, which are the parents' to reset.
    func resetScope(_ scope: Scope) {
        let parents = Set(base.parent?.visibleRegistrations(includingParents: true).map(\.entry.registrationID) ?? [])
        let dropped = instances.reset(scope, keeping: parents, onShelves: Set(activeLayers.map(\.id)))
        // Released here, outside the store's lock.
        withExtendedLifetime(dropped) {}
    }

    /// Drops what every layer keeps for the registrations of `scope` that answer `key`: a
    /// layer's override, the base's registration, a fake or an implicit (`Injectable`) one.
    func resetScope(_ scope: Scope, only key: ServiceKey) {
        let layers = activeLayers
        var answering = layers.compactMap { $0.overrides.registry[key] }
        // The base's own registration only, as `Container.resetScope(_:only:)` drops: what a
        // parent's registration made stays.
        if let own = base.registry[key] { answering.append(own) }
        answering += layers.compactMap { $0.layerFakes?.registry[key] }
        if let fake = fakes.registry[key] { answering.append(fake) }
        if let implicit = ImplicitRegistrations.existingEntry(for: key) { answering.append(implicit) }
        let ids = Set(answering.filter { $0.scope == scope }.map(\.id))
        let shelves = Set(layers.map(\.id))
        let dropped = ids.flatMap { instances.remove(entryID: $0, onShelves: shelves) }
        withExtendedLifetime(dropped) {}
    }

    // MARK: Binding layers to tasks

    /// Runs `operation` with `layer` bound to this task and the tasks it creates; frees the
    /// layer's instances when it returns.
    func withBound<Result>(_ layer: OverrideLayer, operation: () throws -> Result) rethrows -> Result {
        bind(layer)
        defer { unbind(layer) }
        let layers = Self.taskLayers + [TaskLayer(stack: ObjectIdentifier(self), layer: layer)]
        return try Self.$taskLayers.withValue(layers) {
            try operation()
        }
    }

    /// Runs async `operation` with `layer` bound to this task and its child tasks.
    func withBound<Result>(
        _ layer: OverrideLayer, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        bind(layer)
        defer { unbind(layer) }
        let layers = Self.taskLayers + [TaskLayer(stack: ObjectIdentifier(self), layer: layer)]
        return try await Self.$taskLayers.withValue(layers, operation: operation)
    }

    /// Notes a `withOverrides` layer bound to some task: only while one is, taking a snapshot
    /// reads the task's layers, which costs more than the rest of starting a resolution.
    private func bind(_ layer: OverrideLayer) {
        instances.openShelf(layer.id)
        state.withLock { $0.boundLayerIDs.append(layer.id) }
    }

    /// Frees the instances of `layer`, which its task is done with, then unbinds it and forgets
    /// the snapshot taken with it.
    private func unbind(_ layer: OverrideLayer) {
        // Freed while still noted as bound: a leak check in another task meanwhile must not
        // find the layer unbound with its instances still alive.
        empty([layer.id])
        let (snapshot, toClose) = state.withLock { state in
            if let index = state.boundLayerIDs.firstIndex(of: layer.id) { state.boundLayerIDs.remove(at: index) }
            return (state.boundSnapshots.removeValue(forKey: ObjectIdentifier(layer)), Self.noteEnded(layer, in: &state))
        }
        empty(toClose, closing: true)
        // Let go of here, outside the lock.
        withExtendedLifetime(snapshot) {}
    }

    /// Runs `body` with the ids of the `withOverrides` layers other tasks have bound now: their
    /// tests are still running, and what those layers keep, or resolutions inside them made, is
    /// theirs. Under the lock that binding and unbinding take, so that none comes or goes while
    /// `body` looks at what is alive; `body` takes only leaf locks and lets go of no object (a
    /// deinit may resolve through this stack).
    func withLayersBoundToOtherTasks<Result>(_ body: (Set<Int>) -> Result) -> Result {
        let own = boundLayers().map(\.id)
        return state.withLock { state in
            body(state.boundLayerIDs.isEmpty ? [] : Set(state.boundLayerIDs).subtracting(own))
        }
    }

    /// This task's `withOverrides` layers of this stack, top first.
    private func boundLayers() -> [OverrideLayer] {
        let all = Self.taskLayers
        guard !all.isEmpty else { return [] }
        let identifier = ObjectIdentifier(self)
        return all.reversed().filter { $0.stack == identifier }.map(\.layer)
    }

    // MARK: Snapshots

    /// The layers a resolution starting now sees, with their overrides and the fakes as they
    /// are now: the last snapshot, unless something changed since it was taken.
    func snapshot() -> LayerSnapshot {
        state.withLock { state in
            if state.snapshotRevision == state.revision, state.boundLayerIDs.isEmpty, let snapshot = state.snapshot {
                return snapshot
            }
            return currentSnapshot(&state)
        }
    }

    /// Runs `body` with the snapshot a resolution starting now sees and the trace store's
    /// recorders, under one lock; with what the isolation sentinel finds wrong with `test`
    /// resolving here now, to report once the lock is given up.
    ///
    /// The running test is looked for only once a helper module installed how to tell it
    /// (which the `.testContainer` trait, binding its test to the task, does too): outside a
    /// test suite (a benchmark, say) a recorded resolve pays nothing for it.
    /// - Parameter body: Picks a recorder, given the snapshot, the pool and the running test.
    /// - Returns: What `body` returned, what the isolation sentinel found wrong, and the test.
    func withSnapshot<Result>(
        _ body: (LayerSnapshot, inout RecorderPool, TestRun?) -> Result
    ) -> (Result, [IsolationFinding], TestRun?) {
        state.withLock { state in
            // Identifying takes only leaf locks of the helper modules: safe under this one.
            let test = state.identify.flatMap { identify in RunningTests.bound ?? identify() }
            let findings = state.sentinel.isWatching ? state.sentinel.findings(resolvingIn: test, pushed: state.pushed) : []
            if _fastPath(state.snapshotRevision == state.revision && state.boundLayerIDs.isEmpty && state.snapshot != nil) {
                // Lent in place, not bound to a constant: a copy is a retain and a release.
                return (body(state.snapshot!, &state.recorders, test), findings, test)
            }
            let snapshot = currentSnapshot(&state)
            return (body(snapshot, &state.recorders, test), findings, test)
        }
    }

    /// Runs `body` on the trace store's recorders, under the stack's lock.
    func withRecorders<Result>(_ body: (inout RecorderPool) -> Result) -> Result {
        state.withLock { body(&$0.recorders) }
    }

    /// The current snapshot when the revision alone cannot tell: it also compares the layers
    /// bound to this task, and takes a new snapshot if they differ.
    @inline(never)
    private func currentSnapshot(_ state: inout State) -> LayerSnapshot {
        // A task that outlived its `withOverrides` still lists the layer, done with: left out, as
        // it is once no task binds one (the snapshot then shared reads no task's layers).
        let bound = state.boundLayerIDs.isEmpty ? [] : boundLayers().filter { state.boundLayerIDs.contains($0.id) }
        guard let innermost = bound.first else {
            if let snapshot = state.snapshot, snapshot.isCurrent(revision: state.revision, bound: []) {
                state.snapshotRevision = state.revision
                return snapshot
            }
            let snapshot = takeSnapshot(bound: [], &state)
            state.snapshot = snapshot
            state.snapshotRevision = state.revision
            return snapshot
        }
        let key = ObjectIdentifier(innermost)
        if let snapshot = state.boundSnapshots[key], snapshot.isCurrent(revision: state.revision, bound: bound) {
            return snapshot
        }
        let snapshot = takeSnapshot(bound: bound, &state)
        state.boundSnapshots[key] = snapshot
        return snapshot
    }

    /// A new snapshot of the layers, with `bound` (this task's, top first) on top.
    private func takeSnapshot(bound: [OverrideLayer], _ state: inout State) -> LayerSnapshot {
        let layers = bound + state.pushed.reversed() + [root]
        return LayerSnapshot(
            layers: layers, bound: bound, base: base, instances: instances, fakes: fakes(seenThrough: layers), revision: state.revision,
            mutant: mutant)
    }

    /// The fakes a resolution starting now in this task uses, the layers' own over the test
    /// container's, and whether relying on one is a problem (`isStrict`, in any of them).
    var activeFakes: (registry: Registry, isStrict: Bool) {
        let layers = activeLayers
        return (fakes(seenThrough: layers), fakes.isStrict || layers.contains { $0.layerFakes?.isStrict == true })
    }

    /// Every key a fake stood in for, as the calling task sees the fakes: the test container's,
    /// then those of its layers' own, each once.
    var activeFakedKeys: [ServiceKey] {
        var keys = fakes.fakedKeys
        for layer in activeLayers.reversed() {
            for key in layer.layerFakes?.fakedKeys ?? [] where !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The fakes a resolution through `layers` (top first) uses: the layers' own, top first,
    /// over the test container's.
    private func fakes(seenThrough layers: [OverrideLayer]) -> Registry {
        let layered = layers.compactMap(\.layerFakes?.registry).filter { !$0.order.isEmpty }
        guard !layered.isEmpty else { return fakes.registry }
        var merged = fakes.registry.storage
        for registry in layered.reversed() {
            for entry in registry.entries { _ = merged.insert(entry) }
        }
        return Registry(merged)
    }

    // MARK: Looking up

    /// The registration a resolution starting now would use for `key`, and where it lives.
    func lookup(_ key: ServiceKey, in call: ResolutionEnvironment? = nil) -> Lookup? {
        snapshot().lookup(key, base: base, in: call)
    }

    /// The name of the layer `found` came from; `nil` for the base.
    func layerName(of found: Lookup) -> String? {
        guard found.origin != 0 else { return nil }
        return snapshot().layerName(of: found.origin)
    }

    /// Every registration a lookup sees now, bottom to top, each key once, where the topmost
    /// registration of it sits.
    func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        let snapshot = snapshot()
        var found = base.visibleRegistrations(includingParents: includingParents).compactMap { found -> Lookup? in
            guard let mutation = snapshot.mutation, mutation.key == found.entry.key else {
                return Lookup(entry: found.entry, cache: snapshot)
            }
            return mutation.lookup(cache: snapshot)
        }
        for layer in snapshot.layers.reversed() {
            let overrides = layer.overrides.registrations.compactMap { info in
                layer.overrides.registry[info.key].map { Lookup(entry: $0, cache: snapshot, origin: layer.id) }
            }
            let keys = Set(overrides.map(\.entry.key))
            found = found.filter { !keys.contains($0.entry.key) } + overrides
        }
        // What a replaced module made is hidden, not a registration to build or list.
        return found.filter { !$0.entry.options.isRefusal }
    }
}
