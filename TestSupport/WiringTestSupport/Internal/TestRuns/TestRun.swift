import Wiring

/// One test, as the helper modules (WiringXCTest, WiringSwiftTesting) tell the test support about
/// it: its name, and whether it has ended. The test support imports no test framework; it learns
/// which test runs through ``RunningTests``.
package final class TestRun: Sendable, CustomStringConvertible {
    /// The test's name as its framework spells it: `CheckoutTests.testCheckout` (XCTest),
    /// `AppTests.CheckoutSuite/checkout()` (Swift Testing). Tests with the same name count as one.
    package var name: String {
        state.withLock { $0.name }
    }
    private let state: LockedState<State>

    private struct State {
        var name: String
        var isEnded = false
        /// Whether the test made a test container, or had one made for it.
        var hasTestContainer = false
        /// Whether the sentinel reported a fallback to `Container.shared` in this test.
        var reportedSharedFallback = false
        /// Run once when the test ends: what containers made for it do then.
        var whenEnded: [@Sendable () -> Void] = []
        /// Run once when the test's scope ends, on the test's own task or thread: checks that
        /// may find something to fail the test for (a layer it left pushed).
        var atScopeEnd: [@Sendable () -> Void] = []
        /// Whether the test's scope ended: the checks waiting for it have run.
        var scopeHasEnded = false
        /// Findings noticed away from the test's own task or thread, to record when its scope ends.
        var pending: [PendingFinding] = []
        /// The findings this test was told of, each once for each test container that noticed it.
        var reported: Set<ReportedFinding> = []
        /// What the test allows, as a `.wiringFindings` trait declared it.
        var findingPolicy = WiringFindings.failTests
    }

    /// A finding the test was told of, and the log of the test container that noticed it: a
    /// test that makes a test container per repetition, or per step, fails for each.
    struct ReportedFinding: Hashable {
        let finding: WiringWarning
        let noticedBy: WarningLog.ID?
    }

    /// A finding waiting for the end of the test's scope, and how to report it.
    struct PendingFinding: Sendable {
        let finding: WiringWarning
        let reportsOnly: Bool
    }

    /// A test named `name`, running.
    package init(name: String) {
        state = LockedState(State(name: name))
    }

    /// Names a test that was not known when it started (see the XCTest observer), once it is.
    package func rename(_ name: String) {
        state.withLock { $0.name = name }
    }

    /// The name.
    package var description: String { name }

    /// Whether the test has ended: its framework moved on.
    package var isEnded: Bool {
        state.withLock { $0.isEnded }
    }

    /// Whether the test's scope ended (the `.testContainer` trait's end, XCTest's teardown block).
    package var hasScopeEnded: Bool {
        state.withLock { $0.scopeHasEnded }
    }

    /// What the test allows, as a `.wiringFindings` trait declared it.
    package var findingPolicy: WiringFindings {
        get { state.withLock { $0.findingPolicy } }
        set { state.withLock { $0.findingPolicy = $0.findingPolicy.merging(newValue) } }
    }

    /// Notes that the test is told of `finding`, noticed by the test container whose log is
    /// `log`: `false` when it was told of it before.
    func noteReported(_ finding: WiringWarning, noticedBy log: WarningLog.ID?) -> Bool {
        state.withLock { $0.reported.insert(ReportedFinding(finding: finding, noticedBy: log)).inserted }
    }

    /// Keeps `finding` until the test's own task or thread records it (at the end of its scope,
    /// or sooner where its framework can) or the test ends: `false` when it has ended.
    func queue(_ finding: WiringWarning, reportsOnly: Bool) -> Bool {
        state.withLock { state in
            guard !state.isEnded else { return false }
            state.pending.append(PendingFinding(finding: finding, reportsOnly: reportsOnly))
            return true
        }
    }

    /// Runs `check` when the test's scope ends, on the test's own task or thread.
    func atScopeEnd(_ check: @escaping @Sendable () -> Void) {
        let hasEnded = state.withLock { state in
            if !state.scopeHasEnded { state.atScopeEnd.append(check) }
            return state.scopeHasEnded
        }
        if hasEnded { check() }
    }

    /// Moves the checks waiting for the end of the test's scope to the test's end: for a test
    /// whose scope end is set up late (a teardown block added after the test's own, which runs
    /// before them and so before they pop what was pushed so far). What they find then can no
    /// longer fail the test, but goes to the end of the run; nothing is reported early.
    package func postponeScopeEndChecks() {
        state.withLock { state in
            state.whenEnded += state.atScopeEnd
            state.atScopeEnd = []
        }
    }

    /// Records the findings kept for this test, if the calling task or thread is the test's
    /// own; keeps those it cannot record.
    package func recordPendingFindings() {
        guard RunningTests.current === self else { return }
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        let unrecorded = pending.filter { !RunningTests.recordNow($0.finding, reportsOnly: $0.reportsOnly) }
        guard !unrecorded.isEmpty else { return }
        state.withLock { $0.pending = unrecorded + $0.pending }
    }

    /// Ends the test's scope, on its own task or thread: the trait's end, the XCTest teardown.
    /// Runs the checks waiting for it, records every finding kept for the test, and sends what
    /// cannot be recorded, or is noticed later, to the end of the run.
    package func endScope() {
        runScopeEndChecks()
        recordPendingFindings()
        closeScope()
    }

    private func runScopeEndChecks() {
        let checks = state.withLock { state in
            defer { state.atScopeEnd = [] }
            return state.atScopeEnd
        }
        for check in checks { check() }
    }

    /// Marks the scope ended, sending what is still kept to the end of the run.
    func closeScope() {
        let left = state.withLock { state in
            state.scopeHasEnded = true
            defer { state.pending = [] }
            return state.pending
        }
        for pending in left { FindingRouter.keepForRunEnd(pending.finding, of: self) }
    }

    /// Marks the test as ended, once, and runs what was waiting for it.
    package func end() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isEnded else { return [] }
            state.isEnded = true
            defer { state.whenEnded = [] }
            return state.whenEnded
        }
        for action in actions { action() }
        // A test whose scope no helper ended: what its checks find can no longer fail it.
        runScopeEndChecks()
        closeScope()
        RunningTests.ended(self)
    }

    /// Runs `action` when the test ends; now, if it has.
    func whenEnded(_ action: @escaping @Sendable () -> Void) {
        let hasEnded = state.withLock { state in
            if !state.isEnded { state.whenEnded.append(action) }
            return state.isEnded
        }
        if hasEnded { action() }
    }

    /// Whether the test made a test container, or had one made for it: it declared the
    /// container its code should resolve from.
    var hasTestContainer: Bool {
        state.withLock { $0.hasTestContainer }
    }

    /// Notes that the test made a test container, or had one made for it.
    func noteTestContainer() {
        state.withLock { $0.hasTestContainer = true }
    }

    /// Whether a fallback to `Container.shared` in this test is one to report: the test has a
    /// test container of its own, and no such fallback was reported for it before.
    func shouldReportSharedFallback() -> Bool {
        state.withLock { state in
            guard state.hasTestContainer, !state.reportedSharedFallback else { return false }
            state.reportedSharedFallback = true
            return true
        }
    }
}
