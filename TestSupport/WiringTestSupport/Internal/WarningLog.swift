import Wiring

/// The warnings a test container noticed, in the order noticed, each once. Written from any
/// thread, including from inside a resolution.
final class WarningLog: Sendable {
    private let warnings = LockedState<[WiringWarning]>([])

    /// Adds `warning` unless an equal one is already there: a resolution repeated in a loop
    /// notices the same thing every time.
    func note(_ warning: WiringWarning) {
        warnings.withLock { warnings in
            if !warnings.contains(warning) { warnings.append(warning) }
        }
    }

    /// Every warning noted so far.
    var all: [WiringWarning] {
        warnings.withLock { $0 }
    }
}
