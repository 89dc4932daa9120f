/// A ``Resolution``'s state, read and written without dynamic exclusivity checks.
///
/// Invariant: one thread at a time uses a resolution, and never two accesses at once: a
/// synchronous resolution only on the thread whose slot holds it (see `UnsafeResolutionSlot`),
/// an async one only in the task that holds its turn (`Resolution.takeAsyncTurn`), or on the
/// thread it runs on while that task waits. The engine's accesses are single statements that
/// call no factory, hook or observer while they last. Debug builds check the thread or turn on
/// every step (`Resolution.isUsedByItsOwner`, asserted in `Resolution.enter`).
package class UnsafeResolutionState {
    @exclusivity(unchecked) final var state: ResolutionState

    init(_ state: ResolutionState) {
        self.state = state
    }

    deinit {
        state.graph.deallocate()
    }
}
