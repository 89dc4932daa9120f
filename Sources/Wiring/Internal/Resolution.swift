/// The state of one top-level `resolve` call: the path of keys being resolved (for cycles and
/// error messages), the instances of `.graph` scope and the registrations as the call first saw
/// them. Nested resolves through the resolver a factory receives share it, and so does a
/// top-level call started on the same thread while it runs (through a `Provider`, a `Lazy` or a
/// captured container): see `ResolutionThread`. Concurrent top-level calls never share one.
///
/// A synchronous call borrows its thread's resolution and gives it back when done, so a resolve
/// allocates nothing of its own; a resolution whose resolver escaped its factory is never reused.
package final class Resolution: @unchecked Sendable {
    // One resolution runs on one thread at a time (the thread whose `ResolutionThread` slot
    // holds it), so the dynamic exclusivity checks on these would only cost time on the hot path.
    /// Kept alive by the caller of the top-level resolve while the resolution runs. Once its
    /// call is over, a resolver that escaped reaches the source through `escape` instead.
    @exclusivity(unchecked) unowned(unsafe) var borrowedSource: any ResolutionSource
    /// The registry of the container resolved from, as it was when first needed: later lookups
    /// take no lock. Held by `registry`, or by the caller of the top-level resolve.
    @exclusivity(unchecked) var unownedRegistry: Unmanaged<Registry>?
    @exclusivity(unchecked) var registry: Registry?
    /// Where the instances of entries found in `registry` live, when every plain key the
    /// source resolves is either there or not registered at that level: plain keys can then be
    /// looked up there directly. A container's own store; a test container's layers.
    @exclusivity(unchecked) var directCache: UnownedCache?
    /// The registries of the source's ancestors that a lookup reached, as each was when first
    /// needed.
    @exclusivity(unchecked) var ancestorRegistries: ContiguousArray<Registry> = []
    /// The registrations being resolved, from the top-level request down. Each stays alive
    /// while it is on the path: the frame resolving it holds its lookup.
    @exclusivity(unchecked) var steps = UnsafeStepStack()
    /// Instances of `.graph` scope, and kept instances while their hooks run.
    @exclusivity(unchecked) var graph = UnsafeGraphInstances()
    /// Where factories put the instances they make, until the step returns them.
    @exclusivity(unchecked) var scratch = UnsafeScratchStack()
    /// Whether a top-level call is running on it; read only by the thread that runs it.
    @exclusivity(unchecked) package var isActive = true
    /// Who claims kept instances for this resolution (see `Creations`) when it is not itself:
    /// the resolution it started inside, on the same thread.
    @exclusivity(unchecked) var enclosingOwner: ObjectIdentifier?
    /// The resolution running on this thread when this one started inside it, if any.
    @exclusivity(unchecked) unowned(unsafe) var enclosing: Resolution?
    /// Where the steps of the innermost running `initCompleted` hook begin: a hook may ask
    /// for an instance that is still being built below that point.
    @exclusivity(unchecked) var hookBoundary = 0
    /// How often a hook asked for an instance still being built, which makes it again.
    @exclusivity(unchecked) var remadeInHooks = 0
    /// Set when this resolution backed off from a wait that would never end: it publishes
    /// nothing more, and its top-level call starts again once the instance is free.
    @exclusivity(unchecked) var backedOff: Creations.WaitCycle?
    /// Told about every step when a test container records the resolution; called on every
    /// step without reference counting. Kept alive by whoever started the resolution, or by
    /// `ownedObserver`.
    @exclusivity(unchecked) var unownedObserver: Unmanaged<ObserverReference>?
    /// The observer, when this resolution owns it.
    @exclusivity(unchecked) var ownedObserver: ObserverReference?
    /// This resolution as the resolver its factories receive; owned here, released in `deinit`.
    /// (Held as `Unmanaged` so that reading it on every step costs no reference counting.)
    @exclusivity(unchecked) var lent: Unmanaged<UnsafeLentResolver>?
    /// How the last instance was obtained, for an observer.
    @exclusivity(unchecked) var outcome = ResolutionOutcome.created
    /// The runtime arguments of the step about to run its factory.
    @exclusivity(unchecked) package var pendingArguments: UnsafeRawPointer?
    /// The `.graph` objects of this call as the `Provider`s and `Lazy`s it injected keep them.
    @exclusivity(unchecked) var sharedGraphHandle: SharedGraph?
    /// What a resolver used after the call ended starts new calls from.
    let escape = LockedState(EscapedSource())

    struct EscapedSource {
        var hasEnded = false
        weak var source: (any ResolutionSource)?
    }

    /// The deepest path a resolution follows before it stops with `resolution-too-deep`: far
    /// beyond any real object graph. A thread whose stack is nearly full stops it sooner
    /// (see `stackFloor`).
    package static let maximumDepth = 1_000
    /// Where the stack of the thread this resolution runs on is nearly full (see
    /// `UnsafeStackBounds`); 0 for an async resolution, which moves between threads.
    @exclusivity(unchecked) var stackFloor: UInt = 0

    /// A resolution for an async call, which is not any thread's.
    package init(source: any ResolutionSource) {
        borrowedSource = source
        asyncTurn = LockedState(0)
        lent = .passRetained(UnsafeLentResolver(self))
        observe(owning: source.makeObserver())
    }

    /// A resolution for synchronous calls on the calling thread.
    init(borrowing source: any ResolutionSource, stackFloor: UInt = UnsafeStackBounds.currentThreadFloor()) {
        borrowedSource = source
        asyncTurn = nil
        self.stackFloor = stackFloor
        lent = .passRetained(UnsafeLentResolver(self))
    }

    deinit {
        lent.unsafelyUnwrapped.release()
        graph.removeAll()
        graph.deallocate()
        scratch.deallocate()
        steps.deallocate()
    }

    /// Who claims kept instances for this resolution.
    var owner: ObjectIdentifier { enclosingOwner ?? ObjectIdentifier(self) }

    /// The source of the call running now; only valid while it runs.
    package var source: any ResolutionSource { borrowedSource }

    /// What follows the steps of this resolution, if anything does.
    package var observer: (any ResolutionObserver)? { unownedObserver?._withUnsafeGuaranteedRef { $0.observer } }

    func observe(owning observer: ObserverReference?) {
        ownedObserver = observer
        unownedObserver = observer.map(Unmanaged.passUnretained)
    }

    /// The keys being resolved, from the top-level request down.
    package var path: [ServiceKey] { steps.entries.map(\.key) }

    /// The registrations being resolved, from the top-level request down.
    package var pathEntries: [RegistrationEntry] { steps.entries }

    /// Starts this resolution below `ancestors`, which the caller keeps alive until it ends, so
    /// that its cycles and errors count them.
    package func continuePath(_ ancestors: [RegistrationEntry]) {
        for entry in ancestors { steps.push(entry) }
    }

    /// Makes this resolution part of `outer`, which started it and runs below it on the stack:
    /// its path continues `outer`'s, and it claims kept instances as `outer` does.
    func continueResolution(_ outer: Resolution) {
        continuePath(outer.pathEntries)
        enclosingOwner = outer.owner
        hookBoundary = outer.hookBoundary
    }

    /// The source for a call through a resolver of this resolution where it is not running:
    /// the running call's source, or, once the call has ended, the source if it still exists.
    /// - Throws: `container-released` when the source is gone.
    func sourceForNewCall(_ key: @autoclosure () -> ServiceKey) throws -> any ResolutionSource {
        let source = escape.withLock { escape -> (any ResolutionSource)? in
            // While the call runs, its caller keeps the source alive, and the call cannot end
            // before this lock is released.
            escape.hasEnded ? escape.source : borrowedSource
        }
        guard let source else { throw ResolutionError.containerReleased(for: key()) }
        return source
    }

    /// Marks the call over for resolvers that escaped it: they hold the source weakly from now on.
    func endForEscapedResolvers() {
        fillSharedGraph()
        let source = borrowedSource
        escape.withLock { escape in
            escape.hasEnded = true
            escape.source = source
        }
    }

    // MARK: Async turns

    /// How many async calls are under way in this resolution, each waiting on the next: only a
    /// call from the innermost one's factory may resolve here. Concurrent calls of one factory
    /// would otherwise change the path and the `.graph` instances at the same time. Only a
    /// resolution made by `init(source:)` resolves asynchronously; a thread's has none.
    /// `Int.min` once the resolution has finished.
    private let asyncTurn: LockedState<Int>?

    /// Whether an async call may resolve in this resolution now.
    package enum AsyncTurn {
        /// It took the turn, and gives it back with `endAsyncTurn`.
        case taken
        /// Another call of the same factory has it.
        case busy
        /// The resolution is over.
        case finished
    }

    /// Takes turn `turn` (the number of async calls its caller is nested in), unless another
    /// call of the same factory has it or the resolution is over.
    package func takeAsyncTurn(_ turn: Int) -> AsyncTurn {
        asyncTurn?.withLock { current in
            if current == Int.min { return .finished }
            guard current == turn else { return .busy }
            current = turn + 1
            return .taken
        } ?? .finished
    }

    /// Ends a turn that ``takeAsyncTurn(_:)`` gave.
    package func endAsyncTurn(_ turn: Int) {
        asyncTurn?.withLock { if $0 != Int.min { $0 = turn } }
    }

    /// The registry of the container `level` steps up from the source, fetched once per resolution.
    @inline(__always)
    package func registry(at level: Int, fetch: () -> Registry) -> Registry {
        if level == 0 {
            if let unownedRegistry { return unownedRegistry.takeUnretainedValue() }
            let fetched = fetch()
            registry = fetched
            unownedRegistry = Unmanaged.passUnretained(fetched)
            return fetched
        }
        while ancestorRegistries.count < level {
            ancestorRegistries.append(fetch())
        }
        return ancestorRegistries[level - 1]
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { self }

    /// Runs `body` with this resolution as the resolver a factory receives, without the
    /// retain and release that forming `any Resolver` from it costs on every step.
    @inline(__always)
    package func withResolver<Result>(_ body: (any Resolver) throws -> Result) rethrows -> Result {
        try lent.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.withResolver(body) }
    }

    /// Whether a nested resolve may use this resolution: it is running on this thread, innermost.
    /// A resolver used anywhere else starts a new top-level call (which continues the path of
    /// whatever runs on that thread).
    @inline(__always)
    package var isCurrent: Bool { ResolutionThread.isRunning(self) }

    /// Ends a resolution that `init(source:)` made.
    package func finish() {
        asyncTurn?.withLock { $0 = Int.min }
        fillSharedGraph()
        endObserving()
        endForEscapedResolvers()
    }

    /// Tells the observer the resolution is over, and lets it go.
    @inline(__always)
    func endObserving() {
        if _slowPath(unownedObserver != nil) { endObservingNow() }
    }

    @inline(never)
    private func endObservingNow() {
        let observer = unownedObserver.unsafelyUnwrapped
        unownedObserver = nil
        observer._withUnsafeGuaranteedRef { $0.observer.resolutionEnded() }
        if _slowPath(ownedObserver != nil) { ownedObserver = nil }
    }

    /// Clears what one call left, so the thread's next call starts afresh.
    @inline(__always)
    func reset() {
        if _slowPath(sharedGraphHandle != nil) { fillSharedGraph() }
        steps.removeAll()
        if !graph.isEmpty { graph.removeAll() }
        if !ancestorRegistries.isEmpty { ancestorRegistries.removeAll(keepingCapacity: true) }
        if registry != nil { registry = nil }
        unownedRegistry = nil
        directCache = nil
        hookBoundary = 0
        if _slowPath(remadeInHooks != 0 || backedOff != nil) {
            remadeInHooks = 0
            backedOff = nil
        }
    }
}
