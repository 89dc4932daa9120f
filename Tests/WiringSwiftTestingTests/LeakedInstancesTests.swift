import Testing
import WiringSwiftTesting

// Leaked instances, the module-replacement trait and the new warnings, in Swift Testing.

private final class KLeakyModel {
    var onChange: (() -> Void)?
    init() {
        // A closure that captures the model it belongs to: a cycle nothing breaks.
        onChange = { _ = self }
    }
}
private final class KScreen {
    let model: KLeakyModel
    init(model: KLeakyModel) { self.model = model }
}
private final class KCleanModel {}
private final class KCleanScreen {
    let model: KCleanModel
    init(model: KCleanModel) { self.model = model }
}
private final class KSession {}
private final class KHolder {
    let session: KSession
    init(session: KSession) { self.session = session }
}
private protocol KClient: AnyObject {}
private final class KLiveClient: KClient {}
private final class KStubClient: KClient {}
private struct KNetworkModule: Module {
    func register(in container: Container) {
        container.register((any KClient).self) { _ in KLiveClient() }
    }
}
private struct KFakeNetworkModule: Module {
    func register(in container: Container) {
        container.register((any KClient).self) { _ in KStubClient() }
    }
}

private func makeLeakyApp() -> Container {
    let container = Container()
    container.register(KLeakyModel.self) { _ in KLeakyModel() }
    container.register(KScreen.self) { r in try KScreen(model: r.resolve()) }
    container.register(KCleanModel.self) { _ in KCleanModel() }
    container.register(KCleanScreen.self) { r in try KCleanScreen(model: r.resolve()) }
    container.register(KSession.self) { _ in KSession() }
    container.register(KHolder.self) { r in try KHolder(session: r.resolve()) }.scope(.container)
    return container
}

@Suite struct LeakedInstancesTests {
    @Test func aModelKeptByARetainCycleIsReportedWithItsPath() throws {
        let test = TestContainer(base: makeLeakyApp())
        test.isTrackingLeaks = true                     // on by default in debug builds only
        do { _ = try test.resolve(KScreen.self) }
        let leaked = test.leakedInstances()
        #expect(leaked.map(\.key) == [ServiceKey(KLeakyModel.self)])
        #expect(leaked.first?.path == [ServiceKey(KScreen.self), ServiceKey(KLeakyModel.self)])
        #expect(leaked.first?.description == "KLeakyModel #1 (a KLeakyModel), made by KScreen -> KLeakyModel, is still alive though the test container let go of what it kept")

        let failures = expectFailures { assertNoLeakedInstances(test) }
        #expect(failures.first?.message == """
            the test container made 1 instance still alive though it let go of what it kept:
              KLeakyModel #1 (a KLeakyModel), made by KScreen -> KLeakyModel, is still alive though the test container let go of what it kept
              fix: find what still holds each (a closure capturing it strongly, a cycle of strong references) and break it with `[weak self]` or a weak property
            """)
    }

    @Test func aCleanlyReleasedGraphReportsNothing() throws {
        let test = TestContainer(base: makeLeakyApp())
        test.isTrackingLeaks = true                     // on by default in debug builds only
        do { _ = try test.resolve(KCleanScreen.self) }
        #expect(test.leakedInstances().isEmpty)
        assertNoLeakedInstances(test)
    }

    @Test func whatAKeptInstanceHoldsIsNoLeak() throws {
        let test = TestContainer(base: makeLeakyApp())
        test.isTrackingLeaks = true                     // on by default in debug builds only
        do { _ = try test.resolve(KHolder.self) }
        #expect(test.leakedInstances().isEmpty, "the .container holder keeps its session")
    }

    @Test func whatTheTestStillHoldsIsListedUntilItLetsGo() throws {
        let test = TestContainer(base: makeLeakyApp())
        test.isTrackingLeaks = true                     // on by default in debug builds only
        var screen: KCleanScreen? = try test.resolve(KCleanScreen.self)
        #expect(test.leakedInstances().count == 2)
        withExtendedLifetime(screen) {}
        screen = nil
        #expect(test.leakedInstances().isEmpty)
    }

    @Test(.testContainer { Container(modules: [KNetworkModule()]) }, .replace(KNetworkModule.self, with: KFakeNetworkModule()))
    func theReplaceTraitSwapsTheModule() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve((any KClient).self) is KStubClient)
        #expect(test.trace.render() == "KClient .graph new #1 (module KFakeNetworkModule, replaces KNetworkModule)")
    }

    @Test func theReplaceTraitFailsForAModuleNeverApplied() async throws {
        let trait = TestDoubleTrait.replace(KFakeNetworkModule.self, with: KNetworkModule())
        let failures = await expectFailures {
            try? await TestContainerTrait.testContainer { Container(modules: [KNetworkModule()]) }
                .provideScope(for: Test.current!, testCase: Test.Case.current) {
                    try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {}
                }
        }
        #expect(failures.first?.message.contains("cannot replace KFakeNetworkModule: the base container never applied it (modules applied: KNetworkModule)") == true,
            "\(failures)")
    }

    @Test func assertNoWiringWarningsListsADuplicateAndAMisdirectedOverride() {
        let test = TestContainer(base: Container(modules: [KNetworkModule(), KFakeNetworkModule()]))
        test.wiringFindings(.allow("override-of-unregistered"))
        test.override(KLiveClient.self) { _ in KLiveClient() }
        let failures = expectFailures { assertNoWiringWarnings(test) }
        let message = failures.first?.message ?? ""
        #expect(message.hasPrefix("the test container noticed 2 warnings:"), "\(message)")
        #expect(message.contains("override-of-unregistered: the override of KLiveClient"))
        #expect(message.contains("duplicate-registration: KClient is registered twice"))
    }
}

/// The shapes a walk from kept instances could not see through: a kept coordinator holding a
/// `Provider`, a weak reference to the test container and a weak delegate pointing at the screen
/// that leaks.
private final class LDetail {}
private final class LLeakyScreen {
    var onClose: (() -> Void)?
    init() { onClose = { _ = self } }
}
private final class LCoordinator {
    let makeDetail: Provider<LDetail>
    weak var test: TestContainer?
    weak var delegate: LLeakyScreen?
    init(makeDetail: Provider<LDetail>) { self.makeDetail = makeDetail }
}

private func makeCoordinatedApp() -> Container {
    let container = Container()
    container.register(LDetail.self) { _ in LDetail() }
    container.register(LLeakyScreen.self) { _ in LLeakyScreen() }
    container.register(LCoordinator.self) { r in LCoordinator(makeDetail: try r.resolve()) }.scope(.container)
    return container
}

@Suite struct LeakShapesTests {
    /// Resolves the coordinator and a screen that leaks, and lets `shape` tie them together.
    private func leakedKeys(_ shape: (LCoordinator, LLeakyScreen, TestContainer) throws -> Void) throws -> [ServiceKey] {
        let test = TestContainer(base: makeCoordinatedApp())
        test.isTrackingLeaks = true
        do {
            try shape(try test.resolve(LCoordinator.self), try test.resolve(LLeakyScreen.self), test)
        }
        return test.leakedInstances().map(\.key)
    }

    @Test func aLeakedScreenIsFoundThoughAKeptInstanceHoldsAProvider() throws {
        #expect(try leakedKeys { coordinator, _, _ in _ = try coordinator.makeDetail() } == [ServiceKey(LLeakyScreen.self)])
    }

    @Test func aLeakedScreenIsFoundThoughAKeptInstanceHoldsTheTestContainerWeakly() throws {
        #expect(try leakedKeys { coordinator, _, test in coordinator.test = test } == [ServiceKey(LLeakyScreen.self)])
    }

    @Test func aLeakedScreenIsFoundThoughAKeptInstanceIsItsWeakDelegate() throws {
        #expect(try leakedKeys { coordinator, screen, _ in coordinator.delegate = screen } == [ServiceKey(LLeakyScreen.self)])
    }

    @Test func aCleanCoordinatedGraphReportsNothing() throws {
        let test = TestContainer(base: makeCoordinatedApp())
        test.isTrackingLeaks = true
        do {
            let coordinator = try test.resolve(LCoordinator.self)
            coordinator.test = test
            _ = try coordinator.makeDetail()
        }
        #expect(test.leakedInstances().isEmpty)
    }
}
