import Wiring

/// A registration that can be copied into one whose factory throws a given error instead.
/// A verification sandbox answers a registration that failed with such a copy, so everything
/// above it fails at once instead of walking down to the failure again.
protocol FailureReplay {
    /// A copy of the registration, under the same key and id, whose factory throws `error`.
    /// - Parameter error: What the factory throws.
    func replaying(_ error: ResolutionError) -> RegistrationEntry
}

extension FactoryEntry: FailureReplay {
    func replaying(_ error: ResolutionError) -> RegistrationEntry {
        throwing(id: id, options: options) { _ in error }
    }
}
