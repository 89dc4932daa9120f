import Wiring

/// Wraps an app's container for a test: swaps in test doubles in layers, records every
/// resolution, and reports what is missing, unused or stale. The base is never modified: the
/// test container keeps its own instances of every scope.
///
/// ```swift
/// let test = TestContainer(base: makeAppContainer())
/// test.override(Network.self) { _ in FakeNetwork() }
/// let checkout = try test.resolve(Checkout.self)      // built with FakeNetwork, at every depth
/// print(test.trace.render())
/// ```
///
/// It resolves like a container (`resolve`, `resolveAll`, `Provider`, `Lazy`), and property
/// wrappers use it inside `Container.withCurrent(test) { … }`.
public final class TestContainer: Resolver, Sendable {
    /// The app's container, whose registrations this one resolves unless a layer overrides them.
    public let base: Container
    /// Default factories used only where nothing is registered.
    public let fakes: Fakes
    /// Whether resolutions are recorded into ``trace``; on by default.
    public var isRecording: Bool {
        get { state.withLock { $0.isRecording } }
        set { state.withLock { $0.isRecording = newValue } }
    }

    /// The bottom layer: what `register` adds, and the instances made while no layer is pushed.
    private let root: OverrideLayer
    private let state = LockedState(State())
    /// What the recorders recorded, once something asked for it. Taken before `state`, never after.
    private let history = LockedState(TraceHistory())

    private struct State {
        var layers: [OverrideLayer] = []
        var isRecording = true
        /// Counts changes to the layers, their overrides and the fakes.
        var revision = 0
        /// How many `withOverrides` layers of this test container are bound to tasks now.
        var boundLayerCount = 0
        /// The layers as the last resolution saw them; reused while nothing changed.
        var snapshot: LayerSnapshot? {
            didSet { unownedSnapshot = snapshot.map(Unmanaged.passUnretained) }
        }
        /// `snapshot`, for comparing with a recorder's without reference counting.
        var unownedSnapshot: Unmanaged<LayerSnapshot>?
        /// The revision `snapshot` describes, while no layer is bound to a task; else -1.
        var snapshotRevision = -1
        // Each recorder is held once: by one of these lists, or by the resolution using it.
        /// Recorders of finished resolutions, in the order they finished, not yet replayed.
        var finished = RecordBuffer<Unmanaged<TraceRecorder>>()
        /// Recorders ready for the next resolution.
        var idle = RecordBuffer<Unmanaged<TraceRecorder>>()
        /// For each stored instance made here: the registrations used below it, by key.
        var madeWith: [Int: [(key: ServiceKey, entryID: Int?)]] = [:]
    }

    /// Layers bound to a task by `withOverrides`, innermost last, for any test container.
    @TaskLocal private static var taskLayers: [TaskLayer] = []

    private struct TaskLayer: Sendable {
        let test: ObjectIdentifier
        let layer: OverrideLayer
    }

    /// A test container over `base`, which it never modifies.
    /// - Parameter base: The app's container, usually built by the same function the app uses.
    public init(base: Container) {
        let signal = ChangeSignal()
        self.base = base
        self.changes = signal
        self.fakes = Fakes(changes: signal)
        self.root = OverrideLayer(name: "test", base: base, changes: signal)
        signal.open(for: self)
        base.observeChanges(signal)
    }

    deinit {
        changes.close()
        state.withLock { state in
            for recorder in [state.idle, state.finished].joined() {
                recorder.takeUnretainedValue().detach()
                recorder.release()
            }
            state.idle.deallocate()
            state.finished.deallocate()
        }
    }

    /// Tells this test container that its base, a layer, an override or a fake changed.
    private let changes: ChangeSignal

    fileprivate func layersChanged() {
        state.withLock { $0.revision += 1 }
    }

    // MARK: Registering and overriding

    /// Adds a registration to the test container itself, below every layer.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        root.override(serviceType, name: name, file: file, line: line, factory: factory)
    }

    /// Adds a registration that takes runtime arguments to the test container itself.
    @discardableResult
    public func register<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        root.override(serviceType, name: name, file: file, line: line, factory: factory)
    }

    /// Replaces a registration in the top layer: the one `withOverrides` bound to this task, else
    /// the last pushed, else the test container's own.
    ///
    /// ```swift
    /// test.override(Network.self) { _ in FakeNetwork() }
    /// test.override(Database.self, name: "replica", factory: makeReplica)
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    @discardableResult
    public func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        topLayer.override(serviceType, name: name, file: file, line: line, factory: factory)
    }

    /// Replaces a registration that takes runtime arguments, in the top layer.
    @discardableResult
    public func override<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        topLayer.override(serviceType, name: name, file: file, line: line, factory: factory)
    }

    // MARK: Layers

    /// Pushes a new, empty layer: overrides go into it, and instances made while it is on top
    /// stay in it.
    /// - Parameter name: Shown in traces and reports.
    /// - Returns: The layer, to add overrides to directly.
    @discardableResult
    public func pushLayer(_ name: String) -> OverrideLayer {
        let layer = OverrideLayer(name: name, base: base, changes: changes)
        state.withLock { state in
            state.layers.append(layer)
            state.revision += 1
        }
        return layer
    }

    /// Removes the last pushed layer, its overrides and every instance made while it was on top,
    /// restoring exactly the state before the push.
    /// - Returns: The removed layer, or `nil` when no layer was pushed.
    @discardableResult
    public func popLayer() -> OverrideLayer? {
        let popped = state.withLock { state in
            defer { state.revision += 1 }
            return state.layers.popLast()
        }
        popped?.dropInstances()
        return popped
    }

    /// The names of the pushed layers, bottom first (the task's `withOverrides` layers last).
    public var layerNames: [String] {
        activeLayers.dropLast().reversed().map(\.name)
    }

    /// Runs `operation` with a new layer that only this task and the tasks it creates see;
    /// tests running in parallel on the same test container each see their own.
    ///
    /// ```swift
    /// try test.withOverrides({ layer in layer.override(Clock.self) { _ in FixedClock() } }) {
    ///     let report = try test.resolve(Report.self)   // made with FixedClock
    /// }
    /// ```
    /// - Parameters:
    ///   - configure: Adds the layer's overrides.
    ///   - operation: Runs with the layer in place; the layer and its instances go when it returns.
    public func withOverrides<Result>(
        _ configure: (OverrideLayer) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let layer = OverrideLayer(name: "withOverrides", base: base, changes: changes)
        try configure(layer)
        countBoundLayers(by: 1)
        defer {
            countBoundLayers(by: -1)
            layer.dropInstances()
        }
        return try Self.$taskLayers.withValue(Self.taskLayers + [TaskLayer(test: ObjectIdentifier(self), layer: layer)]) {
            try operation()
        }
    }

    /// Runs async `operation` with a new layer that only this task and its child tasks see.
    public func withOverrides<Result>(
        _ configure: (OverrideLayer) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let layer = OverrideLayer(name: "withOverrides", base: base, changes: changes)
        try configure(layer)
        countBoundLayers(by: 1)
        defer {
            countBoundLayers(by: -1)
            layer.dropInstances()
        }
        return try await Self.$taskLayers.withValue(
            Self.taskLayers + [TaskLayer(test: ObjectIdentifier(self), layer: layer)], operation: operation)
    }

    /// Counts a `withOverrides` layer bound to some task: only while one is, a resolution reads
    /// the task's layers, which costs more than the rest of starting it.
    private func countBoundLayers(by change: Int) {
        state.withLock { state in
            state.boundLayerCount += change
            state.revision += 1
        }
    }

    /// The layers a resolution starting now sees, with their overrides and the fakes as they
    /// are now: the last snapshot, unless something changed since it was taken.
    func currentSnapshot() -> LayerSnapshot {
        state.withLock { state in
            updateSnapshot(&state)
            return state.snapshot.unsafelyUnwrapped
        }
    }

    /// Takes a new snapshot, unless the last one still describes the layers.
    @inline(__always)
    private func updateSnapshot(_ state: inout State) {
        if state.snapshotRevision == state.revision, state.boundLayerCount == 0 { return }
        takeSnapshot(&state)
    }

    /// `updateSnapshot` when the revision alone cannot tell: it also compares the layers bound
    /// to this task.
    @inline(never)
    private func takeSnapshot(_ state: inout State) {
        let bound: [OverrideLayer]
        if state.boundLayerCount == 0 {
            if state.snapshot?.isCurrent(revision: state.revision) == true { return }
            bound = []
        } else {
            bound = boundLayers()
            if state.snapshot?.isCurrent(revision: state.revision, bound: bound) == true { return }
        }
        state.snapshot = LayerSnapshot(
            layers: bound + state.layers.reversed() + [root], bound: bound, base: base.registry,
            fakes: fakes.registry, revision: state.revision)
        state.snapshotRevision = bound.isEmpty ? state.revision : -1
    }

    /// This task's `withOverrides` layers on this test container, top first.
    private func boundLayers() -> [OverrideLayer] {
        let all = Self.taskLayers
        guard !all.isEmpty else { return [] }
        let identifier = ObjectIdentifier(self)
        return all.reversed().filter { $0.test == identifier }.map(\.layer)
    }

    /// The layers a lookup sees, top first: this task's, the pushed ones, then the test's own.
    private var activeLayers: [OverrideLayer] {
        currentSnapshot().layers
    }

    /// Where overrides go: this task's innermost `withOverrides` layer, else the last pushed,
    /// else the root. Found without taking a snapshot, which would read every layer's registry
    /// and so make the next override copy it.
    private var topLayer: OverrideLayer {
        let identifier = ObjectIdentifier(self)
        if let bound = Self.taskLayers.last(where: { $0.test == identifier }) { return bound.layer }
        return state.withLock { $0.layers.last } ?? root
    }

    // MARK: Resolving

    /// Resolves through the layers, then the base, then the fakes, recording the resolution.
    public func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try Resolution.run(source: self, prepare: prepareRecorded) { try $0.resolve(serviceType, name: name) }
    }

    /// Sets a new top-level resolution up to look up in the layers as they are now and to be
    /// recorded. The recorder, which holds its snapshot (and the snapshot its registry), is
    /// held by the resolution until it ends: then ``finished(_:)`` takes it back.
    private func prepareRecorded(_ resolution: Resolution) {
        makeRecorder()._withUnsafeGuaranteedRef { recorder in
            recorder.unownedSnapshot._withUnsafeGuaranteedRef { snapshot in
                resolution.prepare(registry: snapshot.unownedRegistry, cache: snapshot, observer: recorder.unownedReference)
            }
        }
    }

    /// Resolves a registration that takes runtime arguments, as ``resolve(_:name:)`` does.
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
        return try resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
    }

    /// Resolves every registration of a type without runtime arguments that the layers and the
    /// base hold, in registration order, recording each.
    public func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try resolveAllTopLevel(serviceType)
    }

    /// Resolves with `await`, for async and main-actor factories, through the layers and the
    /// base like ``resolve(_:name:)``, and recorded like it.
    ///
    /// ```swift
    /// test.override(DatabaseURL.self) { _ in DatabaseURL("memory://") }
    /// let database = try await test.async.resolve(Database.self)   // an async factory of the base
    /// ```
    public var async: AsyncResolver { AsyncResolver(source: self) }

    /// Drops the instances the test container keeps for a scope, in every layer.
    public func resetScope(_ scope: Scope) {
        let dropped = activeLayers.flatMap { $0.cache.reset(scope) }
        withExtendedLifetime(dropped) {}
    }

    // MARK: Inspecting

    /// Every resolution made through this test container since it was made or last cleared.
    public var trace: ResolutionTrace {
        ResolutionTrace(roots: withHistory { $0.roots })
    }

    /// Forgets the recorded trace and resolution counts. Registrations resolved so far still
    /// count as used, and instances kept by a scope keep their numbers.
    public func clearTrace() {
        let recorders = history.withLock { history in
            let recorders = takeFinished()
            for recorder in recorders {
                recorder._withUnsafeGuaranteedRef { recorder in
                    recorder.forget(into: &history)
                    recorder.reset()
                }
            }
            history.roots = []
            history.counts = [:]
            return recorders
        }
        state.withLock { state in
            for recorder in recorders { state.idle.append(recorder) }
        }
    }

    /// How often a service was resolved through this test container, at any depth.
    /// - Parameters:
    ///   - serviceType: The type asked for.
    ///   - name: The registration's name, if any. Registrations with runtime arguments count too.
    public func resolutionCount<Service>(of serviceType: Service.Type, name: String? = nil) -> Int {
        let identifier = ObjectIdentifier(serviceType)
        return withHistory { history in
            history.counts.filter { $0.key.typeIdentifier == identifier && $0.key.name == name }.values.reduce(0, +)
        }
    }

    /// The keys among `expected` that nothing here can resolve: no layer, base registration,
    /// fake or `Injectable` conformance.
    public func missingRegistrations(expected: [ServiceKey]) -> [ServiceKey] {
        expected.filter { key in lookup(key) == nil && !Self.isImplicit(key) }
    }

    /// Registrations of the base and overrides of the current layers that were never resolved
    /// through this test container, in registration order, each with where it was registered.
    /// Overrides nobody used are worth a look: the test may not test what it says.
    public func unusedRegistrations() -> [UnusedRegistration] {
        let used = withHistory { $0.used }
        return visibleRegistrations(includingParents: true)
            .filter { !used.contains($0.entry.id) }
            .map { UnusedRegistration(key: $0.entry.key, site: $0.entry.site, layer: layerName(of: $0)) }
    }

    /// Cached instances returned after something they were made with was overridden: the
    /// "my mock is ignored" problem. Each also appears as a warning in the trace.
    public var staleInstanceWarnings: [StaleInstanceWarning] {
        withHistory { $0.staleWarnings }
    }

    private static func isImplicit(_ key: ServiceKey) -> Bool {
        func probe<Service>(_ type: Service.Type) -> Bool {
            ImplicitRegistrations.entry(for: key, as: type) != nil
        }
        return probe(key.serviceType)
    }

    private func layerName(of found: Lookup) -> String? {
        guard found.origin != 0 else { return nil }
        return currentSnapshot().layerName(of: found.origin)
    }

    static let fakeOrigin = -1

    // MARK: Recording

    /// A recorder for a resolution starting now, with the layers it sees. The caller holds it
    /// until the resolution ends, when ``finished(_:)`` takes it back.
    private func makeRecorder() -> Unmanaged<TraceRecorder> {
        state.withLock { state in
            updateSnapshot(&state)
            guard !state.idle.isEmpty else {
                return .passRetained(TraceRecorder(test: self, snapshot: state.snapshot.unsafelyUnwrapped))
            }
            let recorder = state.idle.removeLast()
            recorder._withUnsafeGuaranteedRef { recorder in
                if recorder.unownedSnapshot.toOpaque() != state.unownedSnapshot.unsafelyUnwrapped.toOpaque() {
                    recorder.snapshot = state.snapshot.unsafelyUnwrapped
                }
            }
            return recorder
        }
    }

    /// Takes the recorder of a finished resolution. Its steps stay as recorded until something
    /// reads the trace, the counts or the reports; only stored-scope instances are checked now,
    /// against the layers as they are now, for dependencies overridden since they were made.
    func finished(_ recorder: TraceRecorder) {
        if recorder.hasStoredScopes { checkStoredInstances(recorder) }
        // The reference `makeRecorder` handed out, which goes back to a list.
        let handle = Unmanaged.passUnretained(recorder)
        let isEmpty = recorder.steps.isEmpty
        state.withLock { state in
            if isEmpty {
                state.idle.append(handle)
            } else {
                handle._withUnsafeGuaranteedRef { $0.keepsTree = state.isRecording }
                state.finished.append(handle)
            }
        }
    }

    /// Runs `body` on the history, once every finished resolution has been replayed into it.
    private func withHistory<Result>(_ body: (inout TraceHistory) -> Result) -> Result {
        let (result, recorders) = history.withLock { history in
            let recorders = takeFinished()
            for recorder in recorders {
                recorder._withUnsafeGuaranteedRef { recorder in
                    recorder.replay(into: &history)
                    recorder.reset()
                }
            }
            return (body(&history), recorders)
        }
        if !recorders.isEmpty {
            state.withLock { state in
                for recorder in recorders { state.idle.append(recorder) }
            }
        }
        return result
    }

    private func takeFinished() -> [Unmanaged<TraceRecorder>] {
        state.withLock { state in
            defer { state.finished.removeAll() }
            return Array(state.finished)
        }
    }

    private func checkStoredInstances(_ recorder: TraceRecorder) {
        let steps = recorder.steps
        // Made ones first: a step may come across an instance made earlier in the same resolution.
        for (index, step) in steps.enumerated() where step.outcome == .created && step.entry?.isStored == true {
            let used = recorder.descendants(of: index).map { (key: recorder.key(at: $0), entryID: steps[$0].entry?.id) }
            state.withLock { $0.madeWith[step.entry!.id] = used }
        }
        for (index, step) in steps.enumerated() where step.outcome == .cached && step.entry?.isStored == true {
            let stale = staleDependencies(of: step.entry!.id)
            if !stale.isEmpty { recorder.staleDependencies[index] = stale }
        }
    }

    private func staleDependencies(of entryID: Int) -> [TraceRecorder.StaleDependency] {
        guard let madeWith = state.withLock({ $0.madeWith[entryID] }) else { return [] }
        var stale: [TraceRecorder.StaleDependency] = []
        for dependency in madeWith {
            guard let now = lookup(dependency.key), now.entry.id != dependency.entryID else { continue }
            stale.append(TraceRecorder.StaleDependency(
                key: dependency.key, overriddenIn: layerName(of: now).map { "layer \"\($0)\"" } ?? "the base",
                site: now.entry.site))
        }
        return stale
    }
}

extension RegistrationEntry {
    /// Whether a container keeps this registration's instances (`.container`, `.weak`, custom).
    var isStored: Bool {
        switch lifetime {
        case .container, .weak, .custom: true
        case .transient, .graph: false
        }
    }
}

// MARK: - Resolution source

extension TestContainer: ResolutionSource {
    package func lookup(_ key: ServiceKey, in resolution: Resolution?) -> Lookup? {
        // A resolution of this test container looks up in the layers it began with.
        if let resolution, resolution.source === self, let recorder = resolution.observer {
            return unsafeDowncast(recorder, to: TraceRecorder.self).snapshot.lookup(key, base: base, in: resolution)
        }
        return currentSnapshot().lookup(key, base: base, in: resolution)
    }

    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        // Bottom to top, each key once, where the topmost registration of it sits.
        let snapshot = currentSnapshot()
        var found = base.visibleRegistrations(includingParents: includingParents).map {
            Lookup(entry: $0.entry, cache: snapshot)
        }
        for layer in snapshot.layers.reversed() {
            let overrides = layer.overrides.registrations.compactMap { info in
                layer.overrides.registry[info.key].map { Lookup(entry: $0, cache: snapshot, origin: layer.id) }
            }
            let keys = Set(overrides.map(\.entry.key))
            found = found.filter { !keys.contains($0.entry.key) } + overrides
        }
        return found
    }

    package var implicitCache: any InstanceCache { self }

    package func makeObserver() -> ObserverReference? {
        makeRecorder()._withUnsafeGuaranteedRef(\.reference)
    }
}

extension TestContainer: InstanceCache {
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        currentSnapshot().cachedInstance(for: entry)
    }

    package func store(_ instance: AnyObject, for entry: RegistrationEntry) {
        currentSnapshot().store(instance, for: entry)
    }

    package var creationStore: AnyObject { currentSnapshot().creationStore }
}

/// Tells a test container that its base, its layers, their overrides or its fakes changed, so
/// that its next resolution takes a new ``LayerSnapshot``, without keeping the test container
/// alive.
///
/// It holds the test container without a weak reference: a weakly referenced object has every
/// retain and release take the runtime's slow path, and a test container is retained on every
/// resolve. The test container closes the signal as it goes away instead.
final class ChangeSignal: RegistrationObserver {
    private let test = LockedState<UnownedTestContainer?>(nil)

    private struct UnownedTestContainer: @unchecked Sendable {
        unowned(unsafe) let value: TestContainer
    }

    func open(for test: TestContainer) {
        self.test.withLock { $0 = UnownedTestContainer(value: test) }
    }

    func close() {
        test.withLock { $0 = nil }
    }

    func send() {
        // Under the lock, so that `close` waits for a change being sent to the test container.
        test.withLock { $0?.value.layersChanged() }
    }

    var isObserving: Bool {
        test.withLock { $0 != nil }
    }

    func registrationsChanged() {
        send()
    }
}
