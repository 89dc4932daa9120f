import Dispatch
import WiringTestHelpers
import WiringXCTest
import XCTest

/// Findings noticed away from the main thread, where XCTest runs a test, while the test still
/// runs: in an async `tearDown()` (after Wiring's teardown block ended the test's scope), and on
/// another queue while the test waits for an expectation. Run only in a child process (see
/// OffTheTestsPathFindingsTests in WiringSwiftTestingTests).
final class OffTheMainThreadFindingsChildXCTests: XCTestCase {
    private var test: TestContainer?

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-off-main-findings" else { throw XCTSkip("runs only in a child process") }
    }

    func testSwallowsLiveOnlyInSyncTearDown() {
        test = makeTestContainer(base: makeFindingsApp())
    }

    func testSwallowsLiveOnlyInAsyncTearDown() {
        test = makeTestContainer(base: makeFindingsApp())
    }

    func testSwallowsLiveOnlyOnAnotherQueueWhileWaiting() {
        let test = makeTestContainer(base: makeFindingsApp())
        let noticed = expectation(description: "noticed on another queue")
        DispatchQueue.global().async {
            _ = try? test.resolve(PayDesk.self)
            // Through the main queue, which runs in order: after what the finding queued there.
            DispatchQueue.main.async { noticed.fulfill() }
        }
        wait(for: [noticed], timeout: 10)
        // Recorded while the test waited: a failure now is the test's, at the finding's site.
        XCTAssertEqual(testRun?.failureCount, 1)
    }

    override func tearDown() {
        if name.contains("InSyncTearDown") { _ = try? test?.resolve(PayDesk.self) }
        super.tearDown()
    }

    override func tearDown() async throws {
        if name.contains("InAsyncTearDown") { _ = try? test?.resolve(PayDesk.self) }
        try await super.tearDown()
    }
}
