import WiringTestSupport
import XCTest

/// Follows XCTest's tests as they start and finish, so that the test support knows which one
/// runs. XCTest runs one test at a time in a process, so the running test is the same on every
/// thread: code on another queue is still known to be the test's.
final class XCTestRunObserver: NSObject, XCTestObservation, Sendable {
    /// The observer of this process, added to XCTest's observation center once.
    static let shared = XCTestRunObserver()

    /// The running test case, by identity, and the test run for it.
    private let running = LockedState<(testCase: ObjectIdentifier, run: TestRun)?>(nil)

    /// Adds the observer to XCTest's observation center.
    static func install() {
        XCTestObservationCenter.shared.addTestObserver(shared)
    }

    /// The XCTest test running now, if any.
    var currentRun: TestRun? {
        running.withLock { $0?.run }
    }

    /// The run of `testCase`, which is running: the observer may have been added during it, so
    /// after it started.
    func run(for testCase: XCTestCase) -> TestRun {
        running.withLock { running in
            if let running, running.testCase == ObjectIdentifier(testCase) { return running.run }
            let run = TestRun(name: testCase.name)
            running = (ObjectIdentifier(testCase), run)
            return run
        }
    }

    /// A test starts: it is the running one.
    func testCaseWillStart(_ testCase: XCTestCase) {
        running.withLock { $0 = (ObjectIdentifier(testCase), TestRun(name: testCase.name)) }
    }

    /// A test finished, its teardown included: it has ended.
    func testCaseDidFinish(_ testCase: XCTestCase) {
        let finished = running.withLock { running -> TestRun? in
            guard let current = running, current.testCase == ObjectIdentifier(testCase) else { return nil }
            running = nil
            return current.run
        }
        finished?.end()
    }
}
