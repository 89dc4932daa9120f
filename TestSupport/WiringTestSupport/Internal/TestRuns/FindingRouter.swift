import Wiring

/// Sends each finding to the test it fails: now, when it is noticed on the test's own task or
/// thread; when it is noticed elsewhere (a detached task, another queue), on the test's own task
/// or thread when it next can (XCTest's main thread once it is free, the end of the test's
/// scope, a test container released inside the test); at the end of the run, naming the test,
/// when the test ended first.
///
/// Swift Testing attributes `Issue.record` from a detached task or another queue to no test, and
/// a late `XCTFail` lands on the next test: only the test's own task or thread records.
package enum FindingRouter {
    /// Set while what is noticed is someone else's to report than the running test's findings.
    @TaskLocal package static var reportedElsewhere: ReportedElsewhere?

    /// Who reports, instead, what is noticed while ``reportedElsewhere`` is set.
    package enum ReportedElsewhere: Sendable {
        /// `assertScope` resolving in its probe: what it meets, its failure reports.
        case byTheAssertion
        /// A test's `.testContainer` applying its suite's test doubles again, to its own
        /// container: the suite's container noticed the same for this test already.
        case bySuiteContainer
    }

    /// Reports `finding`, noticed by a test container whose owner (the test it was made in, or
    /// for) is `owner`, whose own policy is `policy` and whose log is `log`. It fails `culprit`,
    /// the test known to have made it (the one that pushed a layer it left pushed), if given;
    /// else the running test, if one is known; else `owner`; else nobody, and it is kept for the
    /// end of the run. A test fails once for each finding a test container noticed.
    static func report(
        _ finding: WiringWarning, culprit: TestRun? = nil, owner: TestRun?, policy: WiringFindings = .failTests,
        noticedBy log: WarningLog.ID? = nil
    ) {
        guard reportedElsewhere == nil else { return }
        let running = RunningTests.current.flatMap { $0.isEnded ? nil : $0 }
        guard let test = culprit ?? running ?? owner else {
            RunEnd.warn(finding.description)
            return
        }
        // What the calling task allows counts only for its own test's findings: another test's
        // (a layer it left pushed) is judged by that test's allowances.
        let allowedHere = test === running ? WiringFindings.bound : .failTests
        let policy = policy.merging(test.findingPolicy).merging(allowedHere).merging(.environment)
        guard !policy.allows(finding.identifier), test.noteReported(finding, noticedBy: log) else { return }
        if test === running, RunningTests.recordNow(finding, reportsOnly: policy.reportsOnly) { return }
        if test.queue(finding, reportsOnly: policy.reportsOnly) {
            waiting.withLock { $0[ObjectIdentifier(test)] = test }
            RunningTests.recordPendingSoon(of: test)
            return
        }
        keepForRunEnd(finding, of: test)
    }

    /// Tests with findings kept for the end of their scope: a Swift Testing test without the
    /// `.testContainer` trait has no end Wiring sees, so what it still keeps when the run ends
    /// goes to the summary.
    private static let waiting = LockedState<[ObjectIdentifier: TestRun]>([:])

    /// Sends every finding still kept for a test to the summary at the end of the run.
    static func runEnded() {
        let tests = waiting.withLock { waiting in
            defer { waiting = [:] }
            return Array(waiting.values)
        }
        for test in tests { test.closeScope() }
    }

    /// Keeps `finding` of `test`, which can no longer be failed, for the summary at the end of
    /// the run.
    package static func keepForRunEnd(_ finding: WiringWarning, of test: TestRun) {
        RunEnd.warn("\(finding.description)\n  (noticed for \(test.name) after it ended, so it failed no test)")
    }

    /// Keeps `finding`, noticed in `place`, where the framework runs no test to fail (an XCTest
    /// class `setUp()` or `tearDown()`), for the summary at the end of the run.
    package static func keepForRunEnd(_ finding: WiringWarning, noticedOutsideTestsIn place: String) {
        RunEnd.warn("\(finding.description)\n  (noticed in \(place), where no test runs, so it failed no test)")
    }
}
