import Dispatch
import WiringTestHelpers
import WiringXCTest
import XCTest

/// Tests that each make one mistake Wiring notices, and tests that make it on purpose and say
/// so, run only in a child process (see FindingsRunTests in WiringSwiftTestingTests).
final class FindingsChildXCTests: XCTestCase {
    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-findings" else { throw XCTSkip("runs only in a child process") }
    }

    // MARK: Each fails its test

    func testLiveOnlySwallowedFails() {
        let test = makeTestContainer(base: makeFindingsApp())
        _ = try? test.resolve(PayDesk.self)
    }

    func testLiveOnlySwallowedInAHandMadeContainerFails() {
        let test = TestContainer(base: makeFindingsApp())
        _ = try? test.resolve(PayDesk.self)
    }

    func testOverrideOfUnregisteredFails() {
        makeTestContainer(base: makeFindingsApp()).override((any Logger).self) { _ in ConsoleLogger() }
    }

    func testUnbalancedPopFails() {
        makeTestContainer(base: makeFindingsApp()).popLayer()
    }

    func testUnbalancedPushInAHandMadeContainerFails() {
        let test = TestContainer(base: makeFindingsApp())
        test.pushLayer("offline")
    }

    func testResolverBypassFails() throws {
        _ = try makeTestContainer(base: makeFindingsApp()).resolve(BypassingSync.self)
    }

    func testResolverBypassOnAnotherQueueFails() {
        let test = makeTestContainer(base: makeFindingsApp())
        // Recorded from another thread, a failure could land on the next test: it waits for teardown.
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { _ = try? test.resolve(BypassingSync.self) }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
    }

    // MARK: Each passes

    func testLiveOnlyAllowedPasses() {
        let test = makeTestContainer(base: makeFindingsApp())
        test.wiringFindings(.allow("live-only"))
        _ = try? test.resolve(PayDesk.self)
        XCTAssertEqual(test.warnings.map(\.identifier), ["live-only"])
    }

    func testPushPoppedPasses() throws {
        let test = makeTestContainer(base: makeFindingsApp())
        test.pushLayer("offline")
        test.override(LiveGateway.self) { _ in LiveGateway() }
        _ = try test.resolve(PayDesk.self)
        test.popLayer()
    }

    func testPushPoppedByTheHelperPasses() {
        let test = TestContainer(base: makeFindingsApp())
        pushLayer("offline", on: test)
    }
}
