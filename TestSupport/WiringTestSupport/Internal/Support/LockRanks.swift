import Wiring

/// The test support's locks that are held while other code runs, in the core's one lock order
/// (see `LockRank`): all below a container's, which code run under them may take.
extension LockRank {
    /// A test container's trace history, held while the recorders' steps are replayed into it.
    static let traceHistory = LockRank(5, name: "traceHistory")
    /// The running-test hooks the helper modules install, held while each layer stack's copy of
    /// them is updated.
    static let runningTests = LockRank(10, name: "runningTests")
    /// A test container's layer stack.
    static let layerStack = LockRank(20, name: "layerStack")
}
