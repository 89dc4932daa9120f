import Dispatch
import WiringAssertions
import WiringTestHelpers
import WiringXCTest
import XCTest

// The isolation sentinel under XCTest: XCTest runs one test at a time, so code on another queue
// is known to be the running test's. Each finding fails the test concerned, with the exact message.
//
// `Container.shared` is the process's: the fallback is simulated here by calling the hook
// `Container.injectionResolver` calls (the real path runs in child processes).

final class IsolationSentinelXCTests: FailureCapturingTestCase {
    /// Runs `body` on another thread, and waits for it (failing the test if it takes 30 s).
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group, execute: body)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "the other thread did not finish within 30 s")
    }

    func testAFallbackToTheSharedContainerOnAnotherQueueFailsTheTest() {
        _ = makeTestContainer(base: makeAppContainer())

        let failures = captureFailures {
            onAnotherThread { Container.onSharedFallback?(makeAppContainer()) }
            // Noticed on another thread, the finding waits for the test's teardown; recorded now.
            RunningTests.current?.recordPendingFindings()
        }

        XCTAssertEqual(failures.map(\.message), [
            """
            shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver in \(name), \
            which has a test container of its own: the code that resolved does not see it (it runs outside \
            Container.withCurrent, in a Task.detached or in a callback on another queue), so it used the app's real dependencies
              fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand that \
            code the resolver it should use
            """
        ])
    }

    func testALayerAnotherTestLeftPushedFailsTheTestResolvingThroughIt() throws {
        TestIdentification.install()
        _ = TestIdentification.run(for: self)
        let shared = TestContainer(base: makeAppContainer())
        RunningTests.$bound.withValue(TestRun(name: "OfflineTests.testOffline")) { _ = shared.pushLayer("offline") }

        let failures = captureFailures { _ = try? shared.resolve(Cart.self) }

        XCTAssertEqual(failures.map(\.message), [
            """
            leaked-layer: layer "offline", pushed on a shared TestContainer during OfflineTests.testOffline, is still \
            pushed while \(name) resolves through it, so \(name) gets that test's overrides and the instances made in the layer
              fix: pop the layer in the test that pushes it (`defer { test.popLayer() }`; in XCTest, `pushLayer(_:on:)` \
            pops it at teardown), or use `test.withOverrides({ layer in … }) { … }`, whose layer only the test's own task sees
            """
        ])
        // Popped, it is left to no one (a layer left pushed is an `unbalanced-push` warning at the end of the run).
        shared.popLayer()
    }

    func testALayerPushedWithPushLayerOnIsPoppedAtTeardownWithTheLayersAboveIt() throws {
        let shared = TestContainer(base: makeAppContainer())
        shared.pushLayer("below")
        // Teardown blocks run last added, first run: this one runs after the pop it checks. The
        // layer pushed before is left; the one pushed directly above is popped with it.
        addTeardownBlock {
            XCTAssertEqual(shared.layerNames, ["below"], "pushLayer(_:on:) did not pop its layer at teardown")
            XCTAssertEqual(try shared.resolve(Network.self).label, "live", "the next test would see the layer's override")
            shared.popLayer()
        }
        pushLayer("mine", on: shared).override(Network.self) { _ in FakeNetwork(label: "mine") }
        shared.pushLayer("above")
        XCTAssertEqual(shared.layerNames, ["below", "mine", "above"])
        XCTAssertEqual(try shared.resolve(Network.self).label, "mine")
    }

    /// A test container made for a test that has ended (simulated here: the real path, across
    /// two XCTest tests, runs in a child process, see ChildRunTests) fails the test resolving
    /// from it, and only once that test ended.
    func testAContainerResolvedFromAfterItsTestEndedFailsTheTestResolving() throws {
        TestIdentification.install()
        _ = TestIdentification.run(for: self)
        let owner = TestRun(name: "KeptTests.testKeeps")
        let kept = TestContainer(base: makeAppContainer())
        kept.declareMade(for: owner, by: "`makeTestContainer(base:)`")
        try RunningTests.$bound.withValue(owner) { _ = try kept.resolve(Cart.self) }

        let whileRunning = captureFailures { _ = try? kept.resolve(Cart.self) }
        XCTAssertEqual(whileRunning.map(\.message), [], "the owner is still running: nothing to report yet")

        owner.end()
        let failures = captureFailures { _ = try? kept.resolve(Cart.self) }

        XCTAssertEqual(failures.map(\.message), [
            """
            ended-test-container: the test container `makeTestContainer(base:)` made for KeptTests.testKeeps was \
            resolved from after KeptTests.testKeeps ended, during \(name)
              fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
            """
        ])
        // Told once a test.
        XCTAssertEqual(captureFailures { _ = try? kept.resolve(Cart.self) }.map(\.message), [])
    }
}
