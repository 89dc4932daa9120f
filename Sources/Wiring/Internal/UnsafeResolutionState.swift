/// The mutable state of a ``Resolution``, which reads and writes it without Swift's dynamic
/// exclusivity checks: with them, a transient resolve runs 1,899 instructions instead of 1,118
/// (callgrind, release build), since each access to a class's stored property is checked.
///
/// Invariant: one thread at a time uses a resolution, and never two accesses at once: a
/// synchronous resolution only on the thread whose `ResolutionThread` slot holds it, an async
/// one only in the task that holds its turn (`Resolution.takeAsyncTurn`), or on the thread it
/// lends itself to while that task waits. Debug builds check on every step
/// (`Resolution.isUsedByItsOwner`, asserted in `Resolution.enter`) that a synchronous resolution
/// runs on its own thread, and that an async one has a turn taken; which task took it, they
/// cannot tell.
package class UnsafeResolutionState {
    /// The source of the running call; its caller keeps it alive. Once the call is over, a
    /// resolver that escaped reaches the source through `Resolution.escape` instead.
    @exclusivity(unchecked) final var borrowedSource: UnsafeUnownedSource
    /// The registry of the container resolved from, as it was when first needed: later lookups
    /// take no lock. Held by `registry`, by the observer, or by the caller of the top-level resolve.
    @exclusivity(unchecked) final var unownedRegistry: UnsafeUnownedReference<Registry>?
    @exclusivity(unchecked) final var registry: Registry?
    /// Where the instances of entries found in `registry` live, when every plain key the
    /// source resolves is either there or not registered at that level: plain keys can then be
    /// looked up there directly. A container's own store; a test container's layers. Held like
    /// `unownedRegistry`.
    @exclusivity(unchecked) final var directCache: UnsafeUnownedCache?
    /// The registries of the source's ancestors that a lookup reached, as each was when first
    /// needed.
    @exclusivity(unchecked) final var ancestorRegistries: ContiguousArray<Registry> = []
    /// The registrations being resolved, from the top-level request down.
    @exclusivity(unchecked) final var steps = UnsafeStepStack()
    /// Instances of `.graph` scope, and kept instances while their hooks run.
    @exclusivity(unchecked) final var graph = UnsafeGraphInstances()
    /// Whether a top-level call is running on it; read only by the thread that runs it.
    @exclusivity(unchecked) package final var isActive = true
    /// Who claims kept instances for this resolution (see `Creations`) when it is not itself:
    /// the resolution it started inside, on the same thread.
    @exclusivity(unchecked) final var enclosingOwner: ObjectIdentifier?
    /// The resolution running on this thread when this one started inside it, if any: it runs
    /// below this one on the stack, so it outlives it.
    @exclusivity(unchecked) final var enclosing: UnsafeUnownedReference<Resolution>?
    /// Where the steps of the innermost running `initCompleted` hook begin: a hook may ask
    /// for an instance that is still being built below that point.
    @exclusivity(unchecked) final var hookBoundary = 0
    /// How often a hook asked for an instance still being built, which makes it again.
    @exclusivity(unchecked) final var remadeInHooks = 0
    /// Set when this resolution backed off from a wait that would never end: it publishes
    /// nothing more, and its top-level call starts again once the instance is free.
    @exclusivity(unchecked) final var backedOff: Creations.WaitCycle?
    /// Told about every step when a test container records the resolution; called on every
    /// step without reference counting. Held by `ownedObserver`, or by whoever started the
    /// resolution.
    @exclusivity(unchecked) final var unownedObserver: UnsafeUnownedReference<ObserverReference>?
    /// The observer, when this resolution owns it.
    @exclusivity(unchecked) final var ownedObserver: ObserverReference?
    /// How the last instance was obtained, for an observer.
    @exclusivity(unchecked) final var outcome = ResolutionOutcome.created
    /// The runtime arguments of the step about to run its factory.
    @exclusivity(unchecked) package final var pendingArguments: UnsafeArguments?
    /// The `.graph` objects of this call as the `Provider`s and `Lazy`s it injected keep them.
    @exclusivity(unchecked) final var sharedGraphHandle: SharedGraph?
    /// Where the stack of the thread this resolution runs on is nearly full (see
    /// `UnsafeStackBounds`); 0 for an async resolution, which moves between threads.
    @exclusivity(unchecked) final var stackFloor: UInt

    init(source: any ResolutionSource, stackFloor: UInt) {
        borrowedSource = UnsafeUnownedSource(source)
        self.stackFloor = stackFloor
    }

    /// This resolution as the resolver its factories receive (see ``UnsafeLentResolver``),
    /// retained once by `lend(_:)` and released in `deinit`; held as `Unmanaged` so that reading
    /// it on every step costs no reference counting.
    @exclusivity(unchecked) private final var lent: Unmanaged<UnsafeLentResolver>?

    deinit {
        lent?.release()
        graph.deallocate()
        steps.deallocate()
    }

    /// Keeps the resolver this resolution lends its factories; called once, from `init`.
    final func lend(_ resolver: UnsafeLentResolver) {
        precondition(lent == nil, "a resolution lends one resolver for its whole life")
        lent = .passRetained(resolver)
    }

    /// Runs `body` with this resolution as the resolver a factory receives, borrowed: forming
    /// `any Resolver` from it on every step would retain and release it.
    final func withResolver<Result>(_ body: (any Resolver) throws -> Result) rethrows -> Result {
        assert(lent != nil, "a resolution lends its resolver from the moment it is made")
        return try lent.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.withResolver(body) }
    }

    /// Runs `entry`'s factory with `resolution` (this one) as its resolver, borrowed, and `entry`
    /// as the `TypedEntry` that makes `Service`s, reached without a dynamic cast and borrowed:
    /// one function, so that a step's factory call costs no call layers of its own.
    ///
    /// Invariant: every entry is a `TypedEntry` of its key's type (the registering calls make
    /// them so), and a step asks for the type of the key it resolves (checked in debug builds).
    final func make<Service>(_ entry: RegistrationEntry, in resolution: Resolution, as serviceType: Service.Type) throws -> Service {
        assert(resolution === self, "a resolution makes its own instances")
        assert(entry is TypedEntry<Service>, "the registration of \(entry.key) does not make a \(Service.self)")
        return try lent.unsafelyUnwrapped._withUnsafeGuaranteedRef { lent in
            try Unmanaged.passUnretained(entry)._withUnsafeGuaranteedRef { entry in
                try unsafeDowncast(entry, to: TypedEntry<Service>.self).make(resolution, resolver: lent.resolver)
            }
        }
    }

    /// Starts a top-level call from `source`, which its caller keeps alive until the call returns.
    final func begin(from source: any ResolutionSource) {
        borrowedSource = UnsafeUnownedSource(source)
        isActive = true
    }

    /// Runs below `outer`, which started this resolution and runs below it on the stack, so it
    /// outlives it.
    final func enclose(in outer: Resolution) {
        enclosing = UnsafeUnownedReference(outer)
    }

    /// Holds `observer` (or none) until the call ends, and reads it unretained.
    final func observe(owning observer: ObserverReference?) {
        ownedObserver = observer
        unownedObserver = observer.map(UnsafeUnownedReference.init)
    }

    /// Holds `registry`, the source's, until the call ends, and reads it unretained.
    final func hold(_ registry: Registry) {
        self.registry = registry
        unownedRegistry = UnsafeUnownedReference(registry)
    }

    /// Hands the resolution, before it starts, the observer of its steps, whose registry it looks
    /// plain keys up in first, with their instances in the observer's cache (a test container's
    /// recorder, which keeps them in the layers its resolution began with).
    ///
    /// The resolution holds the observer until its call ends, and the observer holds its registry
    /// and cache: the caller need keep nothing alive.
    package final func prepare(observer: consuming ObserverReference) {
        guard let registry = observer.registry, let cache = observer.cache else {
            preconditionFailure("a prepared resolution's observer must give its registry and cache")
        }
        // Read unretained: the observer reference, which this resolution now owns, holds them.
        unownedRegistry = UnsafeUnownedReference(registry)
        directCache = UnsafeUnownedCache(cache)
        unownedObserver = UnsafeUnownedReference(observer)
        // Moved in, not copied: each copy is a retain and a release.
        ownedObserver = consume observer
    }

    /// Starts a call that looks plain keys up in `registry` first, their instances in `cache`:
    /// the resolution takes the caller's reference to the registry (a move, not a retain) and
    /// holds it until the call ends; `cache` is the call's source, which the caller of the
    /// top-level resolve keeps alive.
    final func read(taking registry: inout Registry?, cache: any InstanceCache) {
        guard let taken = registry.take() else { preconditionFailure("a call reads the registry its caller looked up") }
        unownedRegistry = UnsafeUnownedReference(taken)
        self.registry = consume taken
        directCache = UnsafeUnownedCache(cache)
    }
}
