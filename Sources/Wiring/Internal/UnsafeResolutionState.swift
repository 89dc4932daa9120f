/// A ``Resolution``'s state, read and written without dynamic exclusivity checks.
/// Invariant: one thread at a time uses a resolution, and never two accesses at once: a
/// synchronous resolution only on the thread whose slot holds it, an async one only in the task
/// that holds its turn (`Resolution.takeAsyncTurn`), or on the thread it lends itself to while
/// that task waits. Debug builds check on every step (`Resolution.isUsedByItsOwner`, asserted
/// in `Resolution.enter`) the thread, or that a turn is taken (not which task took it).
package class UnsafeResolutionState {
    @exclusivity(unchecked) final var state: ResolutionState
    /// The running call's source, apart from `state`: a resolver of the call used on another
    /// thread reads it under `Resolution.escape`'s lock meanwhile.
    @exclusivity(unchecked) final var callSource: (any ResolutionSource)?

    init(stackFloor: UInt) {
        state = ResolutionState(stackFloor: stackFloor)
    }

    deinit {
        state.graph.deallocate()
        state.steps.deallocate()
    }

    /// Starts a top-level call in `environment`, held until the call ends (see `Resolution.reset`).
    final func begin(in environment: consuming ResolutionEnvironment) {
        callSource = environment.source
        state.registry = environment.registry
        state.directCache = environment.store
        state.observer = environment.observer
        state.isActive = true
    }
}
