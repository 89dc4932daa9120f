import Wiring

/// The warnings a test container noticed, in the order noticed, each once, and where the
/// findings among them go: each fails the test that made it (see ``FindingRouter``). Written
/// from any thread, including from inside a resolution.
final class WarningLog: Sendable {
    private let state = LockedState(State())

    /// Tells a log apart from every other made in the process, a freed one's included.
    struct ID: Hashable {
        fileprivate let serial: UInt64
    }

    let id = ID(serial: lastSerial.withLock { serial in
        serial += 1
        return serial
    })
    private static let lastSerial = LockedState<UInt64>(0)

    private struct State {
        var warnings: [WiringWarning] = []
        /// The test the test container was made in, or for, if one is known.
        var owner: TestRun?
        /// What the test container allows (`wiringFindings(_:)`, or the trait it was made under).
        var policy = WiringFindings.failTests
    }

    /// The test the test container was made in, or for.
    var owner: TestRun? {
        get { state.withLock { $0.owner } }
        set { state.withLock { $0.owner = newValue } }
    }

    /// Allows what `policy` allows, on top of what was allowed before.
    func allow(_ policy: WiringFindings) {
        state.withLock { $0.policy = $0.policy.merging(policy) }
    }

    /// Adds `warning` unless an equal one is already there (a resolution repeated in a loop
    /// notices the same thing every time), and, if it is a finding about a test, reports it to
    /// that test once.
    /// - Parameter culprit: The test known to have made the finding, if it is not the running one.
    func note(_ warning: WiringWarning, culprit: TestRun? = nil) {
        let (owner, policy) = state.withLock { state in
            if !state.warnings.contains(warning) { state.warnings.append(warning) }
            return (state.owner, state.policy)
        }
        guard warning.isAboutTheRunningTest else { return }
        FindingRouter.report(warning, culprit: culprit, owner: owner, policy: policy, noticedBy: id)
    }

    /// Every warning noted so far.
    var all: [WiringWarning] {
        state.withLock { $0.warnings }
    }
}
