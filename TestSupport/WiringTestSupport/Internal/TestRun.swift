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

    /// Marks the test as ended, once, and runs what was waiting for it.
    package func end() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isEnded else { return [] }
            state.isEnded = true
            defer { state.whenEnded = [] }
            return state.whenEnded
        }
        for action in actions { action() }
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
