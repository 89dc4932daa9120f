import WiringTestSupport
import XCTest

/// Follows XCTest's tests as they start and finish, so that the test support knows which one
/// runs. XCTest runs one test at a time in a process, so the running test is the same on every
/// thread: code on another queue is still known to be the test's.
final class XCTestRunObserver: NSObject, XCTestObservation, Sendable {
    /// The observer of this process, added to XCTest's observation center once.
    static let shared = XCTestRunObserver()

    /// The running test case and the test run for it; the case is `nil` while the test that
    /// was running when the observer was added is unknown.
    private let running = LockedState<(testCase: UncheckedSendable<XCTestCase>?, run: TestRun)?>(nil)

    /// Findings failed with `XCTFail` for that unknown test: XCTest drops a failure when no test
    /// runs (the observer may have been added in a class `setUp()` or `tearDown()`), so they are
    /// kept until the unknown test turns out to be one (it finishes) or not (another test starts,
    /// or a suite finishes, first, and they go to the end of the run).
    private let unconfirmed = LockedState<[WiringWarning]>([])

    /// Notes `finding`, failed with `XCTFail` while the running test is unknown.
    func noteUnconfirmed(_ finding: WiringWarning) {
        unconfirmed.withLock { $0.append(finding) }
    }

    /// The findings noted for the unknown test, taken: `isATest` when it turned out to be one.
    private func settleUnconfirmed(of run: TestRun?, isATest: Bool) {
        let findings = unconfirmed.withLock { findings in
            defer { findings = [] }
            return findings
        }
        guard !isATest, let run else { return }
        // What is reported from now on (a layer left pushed there, found as the run ends) names it.
        run.rename(Self.noTestName)
        for finding in findings { FindingRouter.keepForRunEnd(finding, noticedOutsideTestsIn: Self.noTestName) }
    }

    /// Adds the observer to XCTest's observation center. Added during an XCTest test (on the
    /// main thread, where XCTest runs its tests, outside any Swift Testing test), it cannot tell
    /// which test that is: until that test finishes, the running test is an unnamed one, named
    /// then, so that a layer it pushes is still known as another test's.
    static func install(duringXCTestTest: Bool) {
        XCTestObservationCenter.shared.addTestObserver(shared)
        guard duringXCTestTest else { return }
        shared.running.withLock { running in
            if running == nil { running = (nil, TestRun(name: unknownName)) }
        }
    }

    /// The name of the unknown test until it is known: it may be none, as a class `setUp()` or
    /// `tearDown()` runs on the main thread outside Swift Testing too, and what is noticed there
    /// meanwhile (a layer pushed) is reported under this name.
    private static let unknownName =
        "the XCTest test (or class setUp() or tearDown()) running when Wiring's helpers were first used"

    /// The name of the unknown test once it turned out to be none.
    private static let noTestName = "an XCTest class setUp() or tearDown()"

    /// The XCTest test running now, if any.
    var currentRun: TestRun? {
        running.withLock { $0?.run }
    }

    /// The XCTest test case running now, if known.
    var currentTestCase: XCTestCase? {
        running.withLock { $0?.testCase?.value }
    }

    /// The run of `testCase`, which is running: the observer may have been added during it, so
    /// after it started.
    func run(for testCase: XCTestCase) -> TestRun {
        let (run, replaced, isNew) = running.withLock { running -> (TestRun, TestRun?, Bool) in
            if let current = running, current.testCase?.value === testCase { return (current.run, nil, false) }
            if let current = running, current.testCase == nil {
                // The test that was running when the observer was added: this one.
                running = (UncheckedSendable(testCase), current.run)
                return (current.run, nil, true)
            }
            let run = TestRun(name: testCase.name)
            defer { running = (UncheckedSendable(testCase), run) }
            return (run, running?.run, true)
        }
        if isNew, replaced == nil { settleUnconfirmed(of: run, isATest: true) }
        replaced?.end()
        // The observer did not see this test start: the run may be the unnamed one of the test
        // running when the observer was added, and has no teardown block yet. Teardown blocks the
        // test added before now run before the one added now, and may pop the layers it pushed so
        // far: checking those waits for the test's end.
        if isNew {
            run.rename(testCase.name)
            run.postponeScopeEndChecks()
            Self.endScopeAtTeardown(of: testCase, run: run)
        }
        return run
    }

    /// A test starts: it is the running one.
    func testCaseWillStart(_ testCase: XCTestCase) {
        let run = TestRun(name: testCase.name)
        let replaced = running.withLock { running -> (run: TestRun, wasUnknown: Bool)? in
            defer { running = (UncheckedSendable(testCase), run) }
            return running.map { ($0.run, $0.testCase == nil) }
        }
        // Another test starts before the unknown one finished: no test ran when the observer was added.
        if let replaced, replaced.wasUnknown { settleUnconfirmed(of: replaced.run, isATest: false) }
        replaced?.run.end()
        Self.endScopeAtTeardown(of: testCase, run: run)
    }

    /// Ends `run`'s scope in a teardown block of `testCase`, after the teardown blocks the test
    /// adds (they run last-added first) and before its `tearDown()` methods: layers the test left
    /// pushed are reported there. What is noticed later on the main thread fails the test at once;
    /// elsewhere (an async `tearDown()`), once the main thread is free, while the test runs.
    private static func endScopeAtTeardown(of testCase: XCTestCase, run: TestRun) {
        testCase.addTeardownBlock { run.endScope() }
    }

    /// A suite finished, its class `tearDown()` included. A test running when the observer was
    /// added has finished before any suite does, so an unknown test still running was none: the
    /// observer was added in a class `setUp()` or `tearDown()`. What was noticed for it goes to the
    /// end of the run now, as no test may start after it (the run's last class) to send it there.
    func testSuiteDidFinish(_ testSuite: XCTestSuite) {
        let unknown = running.withLock { running -> TestRun? in
            guard let current = running, current.testCase == nil else { return nil }
            running = nil
            return current.run
        }
        guard let unknown else { return }
        settleUnconfirmed(of: unknown, isATest: false)
        unknown.end()
    }

    /// A test finished, its teardown included: it has ended.
    func testCaseDidFinish(_ testCase: XCTestCase) {
        let finished = running.withLock { running -> TestRun? in
            guard let current = running, current.testCase == nil || current.testCase?.value === testCase else { return nil }
            running = nil
            return current.run
        }
        settleUnconfirmed(of: finished, isATest: true)
        // The test that was running when the observer was added is this one: findings that
        // name it from now on (a layer it left pushed) say which it was.
        if let finished, !finished.isEnded { finished.rename(testCase.name) }
        finished?.end()
    }
}
