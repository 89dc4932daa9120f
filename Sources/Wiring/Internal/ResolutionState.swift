/// What a ``Resolution`` changes as it runs. A resolution keeps it in one property that is read
/// and written without dynamic exclusivity checks (see `UnsafeResolutionState` for why that is
/// sound).
struct ResolutionState {
    /// The registry of the container resolved from, as it was when first needed: later lookups
    /// take no lock.
    var registry: Registry?
    /// Where the instances of entries found in `registry` live, when every plain key the
    /// source resolves is either there or not registered at that level: plain keys can then be
    /// looked up there directly: a container's own store, or a test container's layers.
    var directCache: (any InstanceCache)?
    /// The registries of the source's ancestors that a lookup reached, as each was when first
    /// needed.
    var ancestorRegistries: ContiguousArray<Registry> = []
    /// The registrations being resolved, from the top-level request down.
    var steps = UnsafeStepStack()
    /// Instances of `.graph` scope, and kept instances while their hooks run.
    var graph = UnsafeGraphInstances()
    /// Whether a top-level call is running on it; read only by the thread that runs it.
    var isActive = true
    /// Who claims kept instances for this resolution (see `Creations`) when it is not itself:
    /// the resolution it started inside, on the same thread.
    var enclosingOwner: ObjectIdentifier?
    /// Where the steps of the innermost running `initCompleted` hook begin: a hook may ask
    /// for an instance that is still being built below that point.
    var hookBoundary = 0
    /// How often a hook asked for an instance still being built, which makes it again.
    var remadeInHooks = 0
    /// Set when this resolution backed off from a wait that would never end: it publishes
    /// nothing more, and its top-level call starts again once the instance is free.
    var backedOff: Creations.WaitCycle?
    /// Told about every step when a test container records the resolution, until the call ends.
    var observer: (any ResolutionObserver)?
    /// How the last instance was obtained, for an observer.
    var outcome = ResolutionOutcome.created
    /// The runtime arguments of the step about to run its factory.
    var pendingArguments: UnsafeArguments?
    /// The `.graph` objects of this call as the `Provider`s and `Lazy`s it injected keep them.
    var sharedGraphHandle: SharedGraph?
    /// Where the stack of the thread this resolution runs on is nearly full (see
    /// `UnsafeStackBounds`); 0 for an async resolution, which moves between threads.
    let stackFloor: UInt
}
