import Wiring

/// Tells a layer stack that its base, a layer's overrides or its fakes changed, so that its
/// next resolution takes a new ``LayerSnapshot``.
///
/// The containers it observes hold it strongly, so it holds no test container at all, only the
/// stack's locked state: a change that arrives while the test container goes away then has
/// nothing to reach but a counter. (A weak reference to the test container would send every
/// retain and release of it, one per resolve, down the runtime's slow path.)
final class ChangeSignal: RegistrationObserver {
    private let state: LockedState<LayerStack.State>

    /// A signal that counts changes in `state`.
    init(counting state: LockedState<LayerStack.State>) {
        self.state = state
    }

    /// Whether the layer stack is still there to be told; the containers drop the signal once not.
    var isObserving: Bool {
        state.withLock { !$0.isClosed }
    }

    /// Counts a change, which makes the stack's snapshot out of date.
    func registrationsChanged() {
        state.withLock { $0.revision += 1 }
    }
}
