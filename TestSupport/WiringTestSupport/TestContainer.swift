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
    public let fakes = Fakes()
    /// Whether resolutions are recorded into ``trace``; on by default.
    public var isRecording: Bool {
        get { state.withLock { $0.isRecording } }
        set { state.withLock { $0.isRecording = newValue } }
    }

    /// The bottom layer: what `register` adds, and the instances made while no layer is pushed.
    private let root: OverrideLayer
    private let state = LockedState(State())
    package let creationLock = RecursiveLock()

    private struct State {
        var layers: [OverrideLayer] = []
        var isRecording = true
        var roots: [ResolutionTrace.Node] = []
        var counts: [ServiceKey: Int] = [:]
        var used: Set<Int> = []
        var numbers = InstanceNumbers()
        /// For each stored instance made here: the registrations used below it, by key.
        var madeWith: [Int: [(key: ServiceKey, entryID: Int?)]] = [:]
        var staleWarnings: [StaleInstanceWarning] = []
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
        self.base = base
        self.root = OverrideLayer(name: "test", base: base)
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
        let layer = OverrideLayer(name: name, base: base)
        state.withLock { $0.layers.append(layer) }
        return layer
    }

    /// Removes the last pushed layer, its overrides and every instance made while it was on top,
    /// restoring exactly the state before the push.
    /// - Returns: The removed layer, or `nil` when no layer was pushed.
    @discardableResult
    public func popLayer() -> OverrideLayer? {
        state.withLock { $0.layers.popLast() }
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
        let layer = OverrideLayer(name: "withOverrides", base: base)
        try configure(layer)
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
        let layer = OverrideLayer(name: "withOverrides", base: base)
        try configure(layer)
        return try await Self.$taskLayers.withValue(
            Self.taskLayers + [TaskLayer(test: ObjectIdentifier(self), layer: layer)], operation: operation)
    }

    /// The layers a lookup sees, with their overrides as they are now, top first.
    private func layerViews() -> [LayerView] {
        activeLayers.map { LayerView(layer: $0, registry: $0.overrides.registry) }
    }

    /// The layers a lookup sees, top first: this task's, the pushed ones, then the test's own.
    private var activeLayers: [OverrideLayer] {
        let identifier = ObjectIdentifier(self)
        let bound = Self.taskLayers.reversed().filter { $0.test == identifier }.map(\.layer)
        return bound + state.withLock { $0.layers.reversed() } + [root]
    }

    private var topLayer: OverrideLayer {
        let identifier = ObjectIdentifier(self)
        if let bound = Self.taskLayers.last(where: { $0.test == identifier }) { return bound.layer }
        return state.withLock { $0.layers.last } ?? root
    }

    // MARK: Resolving

    /// Resolves through the layers, then the base, then the fakes, recording the resolution.
    public func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try resolveTopLevel(ServiceKey(serviceType, name: name), as: serviceType)
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

    /// Drops the instances the test container keeps for a scope, in every layer.
    public func resetScope(_ scope: Scope) {
        let dropped = activeLayers.flatMap { $0.cache.reset(scope) }
        withExtendedLifetime(dropped) {}
    }

    // MARK: Inspecting

    /// Every resolution made through this test container since it was made or last cleared.
    public var trace: ResolutionTrace {
        ResolutionTrace(roots: state.withLock { $0.roots })
    }

    /// Forgets the recorded trace and resolution counts (instances and their numbers stay).
    public func clearTrace() {
        state.withLock { state in
            state.roots = []
            state.counts = [:]
        }
    }

    /// How often a service was resolved through this test container, at any depth.
    /// - Parameters:
    ///   - serviceType: The type asked for.
    ///   - name: The registration's name, if any. Registrations with runtime arguments count too.
    public func resolutionCount<Service>(of serviceType: Service.Type, name: String? = nil) -> Int {
        let identifier = ObjectIdentifier(serviceType)
        return state.withLock { state in
            state.counts.filter { $0.key.typeIdentifier == identifier && $0.key.name == name }.values.reduce(0, +)
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
        let used = state.withLock { $0.used }
        return visibleRegistrations(includingParents: true)
            .filter { !used.contains($0.entry.id) }
            .map { UnusedRegistration(key: $0.entry.key, site: $0.entry.site, layer: layerName(of: $0)) }
    }

    /// Cached instances returned after something they were made with was overridden: the
    /// "my mock is ignored" problem. Each also appears as a warning in the trace.
    public var staleInstanceWarnings: [StaleInstanceWarning] {
        state.withLock { $0.staleWarnings }
    }

    private static func isImplicit(_ key: ServiceKey) -> Bool {
        func probe<Service>(_ type: Service.Type) -> Bool {
            ImplicitRegistrations.entry(for: key, as: type) != nil
        }
        return probe(key.serviceType)
    }

    private func layerName(of found: Lookup) -> String? {
        guard found.origin != 0 else { return nil }
        return activeLayers.first { $0.id == found.origin }?.name ?? (found.origin == Self.fakeOrigin ? "fakes" : nil)
    }

    static let fakeOrigin = -1

    // MARK: Recording

    /// Takes one finished top-level resolution: numbers its instances in order of creation,
    /// counts its steps, checks cached instances for staleness and keeps the tree.
    func record(_ root: ResolutionTrace.Node, instances: [Any], counts: [ServiceKey: Int], used: [Int]) {
        var root = root
        var hasStoredScopes = false
        state.withLock { state in
            var next = instances.makeIterator()
            func number(_ node: inout ResolutionTrace.Node) {
                for index in node.children.indices {
                    number(&node.children[index])
                }
                if node.scope?.isStoredInContainer == true { hasStoredScopes = true }
                if case .failed = node.outcome { return }
                guard let instance = next.next() else { return }
                node.instance = state.numbers.number(for: instance, isNew: node.outcome == .created)
            }
            number(&root)
            state.counts.merge(counts, uniquingKeysWith: +)
            state.used.formUnion(used)
        }
        if hasStoredScopes {
            checkStoredInstances(&root)
        }
        state.withLock { state in
            if state.isRecording { state.roots.append(root) }
        }
    }

    private func checkStoredInstances(_ node: inout ResolutionTrace.Node) {
        for index in node.children.indices {
            checkStoredInstances(&node.children[index])
        }
        guard let entryID = node.entryID, node.scope?.isStoredInContainer == true else { return }
        switch node.outcome {
        case .created: remember(dependenciesOf: entryID, from: node)
        case .cached: node.warnings = staleWarnings(for: entryID, key: node.key, instance: node.instance)
        default: break
        }
    }

    private func remember(dependenciesOf entryID: Int, from node: ResolutionTrace.Node) {
        let used = node.children.flatMap(\.allNodes).map { (key: $0.key, entryID: $0.entryID) }
        state.withLock { $0.madeWith[entryID] = used }
    }

    private func staleWarnings(for entryID: Int, key: ServiceKey, instance: Int?) -> [String] {
        guard let madeWith = state.withLock({ $0.madeWith[entryID] }) else { return [] }
        var warnings: [StaleInstanceWarning] = []
        for dependency in madeWith {
            guard let now = lookup(dependency.key), now.entry.id != dependency.entryID else { continue }
            warnings.append(StaleInstanceWarning(
                service: key, instance: instance, dependency: dependency.key,
                overriddenIn: layerName(of: now).map { "layer \"\($0)\"" } ?? "the base", site: now.entry.site))
        }
        guard !warnings.isEmpty else { return [] }
        state.withLock { state in
            for warning in warnings where !state.staleWarnings.contains(warning) {
                state.staleWarnings.append(warning)
            }
        }
        return warnings.map(\.description)
    }
}

// MARK: - Resolution source

extension TestContainer: ResolutionSource {
    package func lookup(_ key: ServiceKey, in resolution: Resolution?) -> Lookup? {
        let layers = (resolution?.observer as? TraceRecorder)?.layers ?? layerViews()
        for view in layers {
            if let entry = view.registry[key] {
                return Lookup(entry: entry, cache: self, origin: view.layer.id)
            }
        }
        if let found = base.lookup(key, in: resolution) {
            return Lookup(entry: found.entry, cache: self)
        }
        if let entry = fakes.registry[key] {
            return Lookup(entry: entry, cache: self, origin: Self.fakeOrigin)
        }
        return nil
    }

    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        // Bottom to top, each key once, where the topmost registration of it sits.
        var found = base.visibleRegistrations(includingParents: includingParents).map {
            Lookup(entry: $0.entry, cache: self)
        }
        for layer in activeLayers.reversed() {
            let overrides = layer.overrides.registrations.compactMap { info in
                layer.overrides.registry[info.key].map { Lookup(entry: $0, cache: self, origin: layer.id) }
            }
            let keys = Set(overrides.map(\.entry.key))
            found = found.filter { !keys.contains($0.entry.key) } + overrides
        }
        return found
    }

    package var implicitCache: any InstanceCache { self }

    package func makeObserver() -> (any ResolutionObserver)? {
        TraceRecorder(test: self, layers: layerViews())
    }
}

extension TestContainer: InstanceCache {
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        for layer in activeLayers {
            if let instance = layer.cache.instance(for: entry) { return instance }
        }
        return nil
    }

    package func store(_ instance: AnyObject, for entry: RegistrationEntry) {
        topLayer.cache.store(instance, for: entry)
    }
}
