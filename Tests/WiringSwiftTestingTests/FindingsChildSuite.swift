import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Tests that each make one mistake Wiring notices, and tests that make it on purpose and say so,
// run only in a child process: FindingsRunTests checks that each mistake fails its own test, with
// the finding's text at its location, and that each allowed or fixed one passes.

@Suite(.enabled(if: ChildProcess.requestedCase == "swift-testing-findings"))
struct FindingsChildSuite {
    // MARK: Each fails its test

    @Test(.testContainer { makeFindingsApp() })
    func liveOnlySwallowedFails() throws {
        let test = try #require(TestContainer.current)
        _ = try? test.resolve(PayDesk.self)                    // the code under test swallows the refusal
    }

    @Test func liveOnlySwallowedInAHandMadeContainerFails() {
        let test = TestContainer(base: makeFindingsApp())
        _ = try? test.resolve(PayDesk.self)
    }

    @Test(.testContainer { makeFindingsApp() })
    func overrideOfUnregisteredFails() throws {
        try #require(TestContainer.current).override((any Logger).self) { _ in ConsoleLogger() }
    }

    @Test(.testContainer { makeFindingsApp() })
    func unbalancedPopFails() throws {
        try #require(TestContainer.current).popLayer()
    }

    @Test(.testContainer { makeFindingsApp() })
    func unbalancedPushFails() throws {
        try #require(TestContainer.current).pushLayer("offline")
    }

    @Test func unbalancedPushInAHandMadeContainerFails() {
        let test = TestContainer(base: makeFindingsApp())
        test.pushLayer("offline")
    }

    @Test(.testContainer { makeFindingsApp() })
    func resolverBypassFails() throws {
        _ = try #require(TestContainer.current).resolve(BypassingSync.self)
    }

    @Test(.testContainer { makeFindingsApp() })
    func resolverBypassInADetachedTaskFails() async throws {
        let test = try #require(TestContainer.current)
        // No test is known in a detached task: the finding waits for the end of the test.
        await Task.detached { _ = try? test.resolve(BypassingSync.self) }.value
    }

    @Test(.testContainer { makeFindingsApp() })
    func leakFails() throws {
        let test = try #require(TestContainer.current)
        test.isTrackingLeaks = true                             // on by default in debug builds only
        _ = try test.resolve(SelfKeepingScreen.self)
    }

    // MARK: Each passes

    @Test(.testContainer { makeFindingsApp() }, .wiringFindings(.allow("live-only")))
    func liveOnlyAllowedPasses() throws {
        let test = try #require(TestContainer.current)
        _ = try? test.resolve(PayDesk.self)
        #expect(test.warnings.map(\.identifier) == ["live-only"])
    }

    @Test(.wiringFindings(.allow("live-only")), .testContainer { makeFindingsApp() })
    func liveOnlyAllowedOutsideTheContainerTraitPasses() async throws {
        let test = try #require(TestContainer.current)
        await Task.detached { _ = try? test.resolve(PayDesk.self) }.value
    }

    @Test(.testContainer { makeFindingsApp() })
    func liveOnlyOverriddenPasses() throws {
        let test = try #require(TestContainer.current)
        test.override(LiveGateway.self) { _ in LiveGateway() }
        _ = try test.resolve(PayDesk.self)
    }

    @Test(.testContainer { makeFindingsApp() })
    func overrideAllowedOnTheContainerPasses() throws {
        let test = try #require(TestContainer.current)
        test.wiringFindings(.allow("override-of-unregistered"))
        test.override((any Logger).self) { _ in ConsoleLogger() }
        #expect(test.warnings.map(\.identifier) == ["override-of-unregistered"])
    }

    @Test(.testContainer { makeFindingsApp() })
    func pushPoppedPasses() throws {
        let test = try #require(TestContainer.current)
        test.pushLayer("offline")
        defer { test.popLayer() }
        test.override(LiveGateway.self) { _ in LiveGateway() }
        _ = try test.resolve(PayDesk.self)
    }

    @Test(.testContainer { makeFindingsApp() }, .wiringFindings(.reportOnly))
    func reportOnlyPasses() throws {
        try #require(TestContainer.current).override((any Logger).self) { _ in ConsoleLogger() }
    }
}
