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
        get { traces.isRecording }
        set { traces.isRecording = newValue }
    }

    /// The layers, their overrides and the instances made in them; what resolutions look up in.
    let layers: LayerStack
    /// What resolutions through this test container recorded, and what it learned from them.
    let traces: TraceStore
    /// What this test container adds to the wiring coverage of the run.
    let coverage: ContainerCoverage

    /// A test container over `base`, which it never modifies.
    /// - Parameter base: The app's container, usually built by the same function the app uses.
    public init(base: Container) {
        let layers = LayerStack(base: base, mutant: WiringMutant.active)
        self.base = base
        self.fakes = layers.fakes
        self.layers = layers
        let traces = TraceStore(layers: layers)
        self.traces = traces
        coverage = ContainerCoverage(layers: layers, traces: traces)
        RunEnd.prepare()
        RunningTests.discoverHelperModules()
        let number = CoverageRegistry.shared.add(coverage)
        // Resolutions no known test makes count for the test that made the container, if known,
        // else for the container itself, as one test.
        let test = RunningTests.current.flatMap { $0.isEnded ? nil : $0 }
        test?.noteTestContainer()
        traces.setUnattributedTest(test?.name ?? "TestContainer #\(number)")
        // Findings noticed off every test's task fail the test the container was made in,
        // unless that test allows them. What it allows is the test's, not the container's: a
        // container shared by a suite is first touched by one of its tests.
        layers.root.warningLog.owner = test
        test?.findingPolicy = WiringFindings.bound
    }

    deinit {
        layers.reportLayersLeftPushed()
        // Released inside its test, on the test's own task or thread: what others noticed fails it now.
        layers.root.warningLog.owner?.recordPendingFindings()
        CoverageRegistry.shared.finish(coverage)
        // The trace store and its recorders hold each other.
        traces.close()
    }

    // MARK: Registering and overriding

    /// Adds a registration to the test container itself, in its own bottom layer, as the app
    /// would register in its container: the way to add a registration the app lacks, such as a
    /// service only the test resolves. A double for something the app registers is an
    /// `override` instead, which goes into the top layer,
    /// keeps the scope of what it replaces, and says when it replaces nothing.
    ///
    /// ```swift
    /// test.register(ReportPrinter.self) { r in try ReportPrinter(clock: r.resolve()) }  // the app has none
    /// test.register(Greeting.self) { (_, name: String) in Greeting(name) }              // runtime arguments too
    /// test.override(Network.self) { _ in FakeNetwork() }                                // the app has one
    /// ```
    ///
    /// A convenience, not a second mechanism: it is an override in the bottom layer (named
    /// `"test"` in traces), which does not note `override-of-unregistered` when the base has no
    /// such key, and which popping a layer never removes. As with `override`, the factory need
    /// not be `@Sendable`; it takes runtime arguments after the resolver, or none.
    /// - Parameters:
    ///   - serviceType: The type to register.
    ///   - name: The registration's name, if any.
    ///   - factory: Makes the service from the resolver and the runtime arguments, if any.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    ///   - isolation: Where the factory runs: the caller's isolation, by default; leave the default.
    @discardableResult
    public func register<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        OverrideLayer.$isRegistering.withValue(true) {
            layers.root.override(serviceType, name: name, file: file, line: line, isolation: isolation, factory: factory)
        }
    }

    /// Replaces a module the base container applied with another, in the top layer (where
    /// `override` places overrides): every registration the
    /// replaced module made is hidden, and the replacement's answer instead, until the layer is
    /// popped. The trace and `explain` say `(module FakeNetworkModule, replaces NetworkModule)`.
    ///
    /// ```swift
    /// try test.replace(NetworkModule.self, with: FakeNetworkModule())
    /// ```
    /// - Throws: ``ModuleReplacementError`` naming the modules the base applied, when it never
    ///   applied `replaced`.
    public func replace(_ replaced: any Module.Type, with replacement: any Module) throws {
        try layers.topLayer.replace(replaced, with: replacement)
    }

    /// Replaces a registration in the top layer: the one `withOverrides` bound to this task, else
    /// the last pushed, else the test container's own.
    ///
    /// ```swift
    /// test.override(Network.self) { _ in FakeNetwork() }
    /// test.override(Database.self, name: "replica", factory: makeReplica)
    /// let spy = SpyNetwork()                       // a class the test keeps; need not be Sendable
    /// test.override(Network.self) { _ in spy }
    /// test.override(Greeting.self) { (_, name: String) in FakeGreeting(name) }   // runtime arguments
    /// ```
    ///
    /// The factory need not be `@Sendable`: it may capture a double the test keeps and inspects
    /// afterwards. What the test takes on: resolutions run the factory, and use the double, on
    /// the thread or task that resolves; a double is used from the test's own tasks, so share it
    /// across threads only if it is safe to. A factory that takes runtime arguments after the
    /// resolver replaces the registration taking those arguments.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double from the resolver and the runtime arguments, if any.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    ///   - isolation: Where the factory runs: the caller's isolation, by default (a `@MainActor`
    ///     test's double runs only on the main actor); leave the default.
    @discardableResult
    public func override<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        layers.topLayer.override(serviceType, name: name, file: file, line: line, isolation: isolation, factory: factory)
    }

    /// Replaces a registration in the top layer with a double whose factory is awaited, as
    /// `registerAsync`'s is: for an async registration of the app.
    ///
    /// ```swift
    /// test.overrideAsync(Database.self) { _ in try await InMemoryDatabase.open() }
    /// let database = try await test.async.resolve(Database.self)
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double; it may capture a double the test keeps.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    @discardableResult
    public func overrideAsync<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (AsyncResolver) async throws -> Service
    ) -> Registration<Service> {
        layers.topLayer.overrideAsync(serviceType, name: name, file: file, line: line, factory: factory)
    }

    /// Replaces a registration in the top layer with a ready double, which every resolution
    /// returns, at every depth: typically a spy the test keeps and inspects afterwards.
    ///
    /// ```swift
    /// let spy = SpyNetwork()                       // a class the test keeps; need not be Sendable
    /// test.override(Network.self, instance: spy)
    /// try test.resolve(Checkout.self).pay()
    /// #expect(spy.requests.count == 1)
    /// ```
    ///
    /// What the test takes on: the double is used from the test's own tasks (whichever thread or
    /// task resolves gets this instance); share it across threads only if it is safe to.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - instance: The test double.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration, whose scope is `.container`: one instance.
    @discardableResult
    public func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        layers.topLayer.override(serviceType, name: name, instance: instance, file: file, line: line)
    }

    // MARK: Findings

    /// Allows findings on this test container: they stay in ``warnings`` and fail no test. By
    /// default every finding about the running test fails it (see ``WiringFindings``).
    ///
    /// ```swift
    /// test.wiringFindings(.allow("override-of-unregistered"))
    /// test.override(Unused.self) { _ in Unused() }         // fails nothing
    /// #expect(test.warnings.map(\.identifier) == ["override-of-unregistered"])
    /// ```
    public func wiringFindings(_ policy: WiringFindings) {
        layers.root.warningLog.allow(policy)
    }

    // MARK: Layers

    /// Pushes a new, empty layer: overrides go into it, and instances made while it is on top
    /// stay in it.
    ///
    /// Pop it where it is pushed: a layer still pushed when the test that pushed it ends (or the
    /// test container is freed) is an `unbalanced-push` finding, which fails that test at this
    /// call (see ``WiringFindings``).
    /// - Parameters:
    ///   - name: Shown in traces and reports.
    ///   - file: Where the layer is pushed, for the `unbalanced-push` finding; leave the default.
    ///   - line: The line it is pushed at; leave the default.
    /// - Returns: The layer, to add overrides to directly.
    @discardableResult
    public func pushLayer(_ name: String, file: StaticString = #fileID, line: UInt = #line) -> OverrideLayer {
        layers.push(name, at: RegistrationSite(file, line))
    }

    /// Removes the last pushed layer, its overrides and every instance made while it was on top,
    /// restoring exactly the state before the push.
    ///
    /// With no layer pushed it does nothing but note an `unbalanced-pop` warning (see
    /// ``warnings``): some layer was popped twice, or never pushed, and on a test container that
    /// several tests share, an extra pop that did find a layer would have removed another test's.
    /// - Parameters:
    ///   - file: The file of the call, shown in the warning; leave the default.
    ///   - line: The line of the call, shown in the warning; leave the default.
    /// - Returns: The removed layer, or `nil` when no layer was pushed.
    @discardableResult
    public func popLayer(file: StaticString = #fileID, line: UInt = #line) -> OverrideLayer? {
        guard let popped = layers.pop() else {
            noteWarning(.unbalancedPop(at: RegistrationSite(file, line)))
            return nil
        }
        traces.noteOverrides(of: popped)
        return popped
    }

    /// The names of the pushed layers, bottom first (the task's `withOverrides` layers last):
    /// for WiringXCTest's teardown, which pops what a test left pushed. A test reads its layers
    /// in ``trace`` and ``explain(_:name:arguments:)``, and a layer left pushed is an `unbalanced-push`
    /// finding.
    /// Every key a fake stood in for, as the calling task sees the fakes: the test container's,
    /// then those of its layers' own (a `.fakes` trait's under a shared test container).
    package var fakedKeysSeenHere: [ServiceKey] {
        layers.activeFakedKeys
    }

    /// Whether `entry` is a fake the calling task's lookups find: the test container's, or a
    /// layer's own.
    package func isFakeSeenHere(_ entry: RegistrationEntry) -> Bool {
        layers.activeFakes.registry[entry.key] === entry
    }

    package var layerNames: [String] {
        layers.activeLayers.dropLast().reversed().map(\.name)
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
    ///   - operation: Runs with the layer in place; the layer and its instances go when it returns,
    ///     also for a task it started that runs on.
    public func withOverrides<Result>(
        _ configure: (OverrideLayer) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let layer = layers.makeLayer("withOverrides")
        defer { traces.noteOverrides(of: layer) }
        try configure(layer)
        return try layers.withBound(layer, operation: operation)
    }

    /// Runs async `operation` with a new layer that only this task and its child tasks see.
    public func withOverrides<Result>(
        _ configure: (OverrideLayer) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let layer = layers.makeLayer("withOverrides")
        defer { traces.noteOverrides(of: layer) }
        try configure(layer)
        return try await layers.withBound(layer, isolation: isolation, operation: operation)
    }

    // MARK: Resolving

    /// Resolves through the layers, then the base, then the fakes, recording the resolution.
    public func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try resolveTopLevel(serviceType, name: name)
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

    // `test.async` is every resolver's `async` (`Resolver.async`): a test container is a
    // resolution source, so its async resolves go through the layers and are recorded.

    /// Drops the instances the test container keeps for a scope, in every layer, as the same
    /// reset on the base would; with `only`, just the instance of that one registration, as
    /// `Container.resetScope(_:only:)` does: the next resolution of `key` makes a new one, and
    /// the scope's other instances stay. The base container is never touched.
    ///
    /// ```swift
    /// test.resetScope(.session)                                   // every instance of the scope
    /// test.resetScope(.session, only: ServiceKey(Session.self))   // the Session only
    /// ```
    /// - Parameters:
    ///   - scope: The scope whose instances to drop.
    ///   - key: The one registration whose instance to drop; `nil`, the default, for all of them.
    public func resetScope(_ scope: Scope, only key: ServiceKey? = nil) {
        if let key {
            layers.resetScope(scope, only: key)
        } else {
            layers.resetScope(scope)
        }
    }
}
