import Foundation
import Wiring

/// What a helper module (WiringXCTest, WiringSwiftTesting) installs into the test support: how
/// to tell the running test and fail it. Found by name when a test container is made, so that
/// the sentinel knows the tests whichever helper a test used first, or none.
package protocol TestFrameworkHooks: AnyObject {
    /// Installs the hooks, once (see `RunningTests.install(identify:fail:)`).
    static func installHooks()
}

/// Which test is running, as the helper modules tell the test support, and how to fail it.
///
/// The test support imports no test framework. WiringXCTest and WiringSwiftTesting install a
/// way to identify the running test (`Test.current`, an `XCTestObservation`) and to fail it
/// (`Issue.record`, `XCTFail`), and the `.testContainer` trait binds the test case it runs to
/// its task. Where none did, no test is known: coverage counts each test container as one
/// test, and the isolation sentinel warns at the end of the run instead of failing a test.
package enum RunningTests {
    /// The test case the `.testContainer` trait runs in this task and the tasks it creates.
    @TaskLocal package static var bound: TestRun?

    /// Tells the test running in the calling task or thread, if any.
    package typealias Identify = @Sendable () -> TestRun?

    /// Records a finding as a failure (or, report-only, a warning) of the test running in the
    /// calling task or thread, at the finding's site: `false` when the calling task or thread
    /// is not that test's own (a detached task, another queue, a test that finished), where a
    /// failure would be attributed to no test or to the next one.
    package typealias Record = @Sendable (_ finding: WiringWarning, _ reportsOnly: Bool) -> Bool

    /// Arranges for the findings kept for a running test to be recorded on the test's own
    /// thread as soon as it is free, while the test still runs (see `TestRun.recordPendingFindings()`).
    package typealias RecordPendingSoon = @Sendable (_ test: TestRun) -> Void

    private static let hooks = LockedState(Hooks(), rank: .runningTests)

    private struct Hooks {
        var identify: Identify?
        /// Where each live layer stack keeps its copy of `identify`, by layer stack: a recorded
        /// resolve reads it under the lock it takes anyway, instead of taking this one.
        var copies: [ObjectIdentifier: LockedState<LayerStack.State>] = [:]
        var record: Record?
        var recordPendingSoon: RecordPendingSoon?
        /// Tests that own a test container and have not ended, by identity.
        var owning: [ObjectIdentifier: TestRun] = [:]
    }

    /// Installs how to tell the running test and how to fail it; the helper modules do, once.
    /// - Parameters:
    ///   - identify: The test running in the calling task or thread, if any.
    ///   - record: Fails the running test with a finding, from the test's own task or thread.
    ///   - recordPendingSoon: Records what is kept for a test on its own thread once that is
    ///     free, where the framework has such a thread (XCTest's main thread); else nothing.
    package static func install(
        identify: @escaping Identify, record: @escaping Record,
        recordPendingSoon: @escaping RecordPendingSoon = { _ in }
    ) {
        hooks.withLock { hooks in
            hooks.identify = identify
            hooks.record = record
            hooks.recordPendingSoon = recordPendingSoon
            for copy in hooks.copies.values { copy.withLock { $0.identify = identify } }
        }
    }

    /// The class by which a helper module linked into the test process installs its hooks.
    private static let hookClassName = "WiringAssertions.TestFrameworkHookInstaller"

    private static let discovered: Void = {
        (NSClassFromString(hookClassName) as? any TestFrameworkHooks.Type)?.installHooks()
    }()

    /// Installs the hooks of the helper modules linked into the test process, once, if any is:
    /// what a test container does when it is made, before any test pushes a layer on it.
    static func discoverHelperModules() {
        _ = discovered
    }

    /// Keeps `stack`'s copy of the identification current, in `state`, from now until
    /// ``unsubscribe(_:)``.
    static func subscribe(_ stack: ObjectIdentifier, keepingCopyIn state: LockedState<LayerStack.State>) {
        hooks.withLock { hooks in
            hooks.copies[stack] = state
            let identify = hooks.identify
            state.withLock { $0.identify = identify }
        }
    }

    /// Stops keeping a layer stack's copy of the identification, as it goes away.
    static func unsubscribe(_ stack: ObjectIdentifier) {
        hooks.withLock { _ = $0.copies.removeValue(forKey: stack) }
    }

    /// The test running in this task or thread, if one is known.
    package static var current: TestRun? {
        if let bound { return bound }
        guard let identify = hooks.withLock({ $0.identify }) else { return nil }
        return identify()
    }

    /// Records `finding` as a failure of the test running in this task or thread, now.
    /// - Returns: `false` when it cannot: no helper module is linked, or this task or thread is
    ///   not the running test's own.
    static func recordNow(_ finding: WiringWarning, reportsOnly: Bool) -> Bool {
        guard let record = hooks.withLock({ $0.record }) else { return false }
        return record(finding, reportsOnly)
    }

    /// Records what is kept for `test` on its own thread once that is free, if the framework
    /// running it can.
    static func recordPendingSoon(of test: TestRun) {
        hooks.withLock { $0.recordPendingSoon }?(test)
    }

    /// Notes that `test` owns a test container, made for it alone.
    static func noteOwner(_ test: TestRun) {
        hooks.withLock { $0.owning[ObjectIdentifier(test)] = test }
    }

    /// The tests that own a test container and are running, by name, each once.
    static var owningTestNames: [String] {
        let names = hooks.withLock { $0.owning.values.map(\.name) }
        return Array(Set(names)).sorted()
    }

    /// Forgets `test` among the running ones, as it ended.
    static func ended(_ test: TestRun) {
        hooks.withLock { _ = $0.owning.removeValue(forKey: ObjectIdentifier(test)) }
    }
}
