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
    /// A test container a test made and kept for the next one, which it should not have.
    private static let kept = Locked<TestContainer?>(nil)

    /// Runs `body` on another thread, and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group, execute: body)
        group.wait()
    }

    func testAFallbackToTheSharedContainerOnAnotherQueueFailsTheTest() {
        _ = makeTestContainer(base: makeAppContainer())

        let failures = captureFailures {
            onAnotherThread { Container.onSharedFallback?(makeAppContainer()) }
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
    }

    func testALayerPushedWithPushLayerOnIsPoppedBeforeTheNextTest() throws {
        let shared = TestContainer(base: makeAppContainer())
        pushLayer("mine", on: shared)
        _ = try shared.resolve(Cart.self)
    }

    // The next two run in this order (XCTest sorts a class's tests by name).

    func testKeptContainer1IsMadeAndKept() throws {
        let test = makeTestContainer(base: makeAppContainer())
        _ = try test.resolve(Cart.self)
        Self.kept.withLock { $0 = test }
    }

    func testKeptContainer2IsResolvedFromByTheNextTest() throws {
        guard let kept = Self.kept.withLock({ $0 }) else {
            throw XCTSkip("runs after testKeptContainer1IsMadeAndKept")
        }
        defer { Self.kept.withLock { $0 = nil } }

        let failures = captureFailures { _ = try? kept.resolve(Cart.self) }

        let owner = "IsolationSentinelXCTests.testKeptContainer1IsMadeAndKept"
        XCTAssertEqual(failures.map(\.message), [
            """
            ended-test-container: the test container `makeTestContainer(base:)` made for \(owner) was resolved from \
            after \(owner) ended, during \(name)
              fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
            """
        ])
    }
}
