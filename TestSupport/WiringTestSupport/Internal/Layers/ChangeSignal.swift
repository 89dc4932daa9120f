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
    /// The stack's store, emptied when the stack goes: a container may keep the signal longer.
    private let instances: InstanceStore

    /// A signal that counts changes in `state` and lets go, in `instances`, of what registrations
    /// whose options changed kept.
    init(counting state: LockedState<LayerStack.State>, instances: InstanceStore) {
        self.state = state
        self.instances = instances
    }

    /// Whether the layer stack is still there to be told; the containers drop the signal once not.
    var isObserving: Bool {
        state.withLock { !$0.isClosed }
    }

    /// Counts a change, which makes the stack's snapshot out of date; lets go of what every
    /// layer kept for `updated`'s registration before its options changed, at once, as the app's
    /// container does.
    func registrationsChanged(updating updated: RegistrationEntry?) {
        state.withLock { $0.revision += 1 }
        if let updated { instances.dropEarlierCopies(of: updated) }
    }
}
