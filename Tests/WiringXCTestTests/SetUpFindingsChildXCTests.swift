// Also read, and held: a finding queued off the main thread is recorded only while its own test is current (TestRun.recordPendingFindings), else sent to the summary when its test ends; each is recorded once (noteReported, pending taken under the lock); a late one from a finished test's queue fails the running test, as makeTestContainer documents.
import Dispatch
import WiringTestHelpers
import WiringXCTest
import XCTest

/// Wiring's helpers used first in a class `setUp()`, where XCTest runs no test: a live-only
/// refusal swallowed there must fail a test or be listed at the end of the run. Run only in a
/// child process (see OptionChangesAndClassSetUpTests in WiringSwiftTestingTests).
final class SetUpFindingsChildXCTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        guard ChildProcess.requestedCase == "setup-findings-class-setup" else { return }
        // A shared test container warmed once for the class, as a suite might.
        let test = TestContainer(base: makeFindingsApp())
        _ = try? test.resolve(PayDesk.self)
    }

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "setup-findings-class-setup" else { throw XCTSkip("runs only in a child process") }
    }

    func testRunsAfterTheClassSetUp() {}
}
