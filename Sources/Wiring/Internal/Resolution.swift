/// The state of one top-level `resolve` call: the path of keys being resolved (for cycles and
/// error messages), the instances of `.graph` scope and the registrations as the call first saw
/// them. Nested resolves through the resolver a factory receives share it, and so does a
/// top-level call started on the same thread while it runs (through a `Provider`, a `Lazy` or a
/// captured container): see `ResolutionThread`. Concurrent top-level calls never share one.
///
/// A synchronous call borrows its thread's resolution and gives it back when done, so a resolve
/// allocates nothing of its own; a resolution whose resolver escaped its factory is never reused.
package final class Resolution: UnsafeResolutionState, @unchecked Sendable {
    /// What a resolver used after the call ended starts new calls from.
    let escape = LockedState(EscapedSource())

    struct EscapedSource {
        var hasEnded = false
        weak var source: (any ResolutionSource)?
        /// An async resolution's source until it finishes: read by another task of the same
        /// factory while the task holding the turn changes `state` (see ``AsyncTurn/busy``).
        var asyncCallSource: (any ResolutionSource)?
    }

    /// The thread slot's key, read once here rather than on every nested resolve.
    let threadSlot = ResolutionSlot.currentKey

    /// The deepest path a resolution follows before it stops with `resolution-too-deep`: far
    /// beyond any real object graph. A thread whose stack is nearly full stops it sooner
    /// (see `stackFloor`).
    package static let maximumDepth = 1_000
    /// A resolution for an async call in `environment` (see `runAsync`), which is not any thread's.
    init(asyncIn environment: ResolutionEnvironment) {
        asyncTurn = LockedState(0)
        super.init(stackFloor: 0)
        escape.withLock { $0.asyncCallSource = environment.source }
        begin(in: environment)
    }

    /// A resolution for synchronous calls on the calling thread, whose stack ends below `stackFloor`.
    override init(stackFloor: UInt = UnsafeStackBounds.currentThreadFloor()) {
        asyncTurn = nil
        super.init(stackFloor: stackFloor)
    }

    /// Who claims kept instances for this resolution.
    var owner: ObjectIdentifier { state.enclosingOwner ?? ObjectIdentifier(self) }

    /// The source of the call running now; only valid while it runs.
    package var source: any ResolutionSource {
        guard let callSource else { preconditionFailure("a resolution's source was asked for between calls") }
        return callSource
    }

    /// What follows the steps of this resolution, if anything does.
    package var observer: (any ResolutionObserver)? { state.observer }

    /// The keys being resolved, from the top-level request down.
    package var path: [ServiceKey] { state.steps.path.map(\.key) }

    /// The registrations being resolved, from the top-level request down.
    package var pathEntries: [RegistrationEntry] { state.steps.path }

    /// Starts this resolution below `ancestors`, which the caller keeps alive until it ends, so
    /// that its cycles and errors count them.
    package func continuePath(_ ancestors: [RegistrationEntry]) {
        for entry in ancestors { state.steps.push(entry) }
    }

    /// Makes this resolution part of `outer`, which started it and runs below it on the stack:
    /// its path continues `outer`'s, and it claims kept instances as `outer` does.
    func continueResolution(_ outer: Resolution) {
        continuePath(outer.pathEntries)
        state.enclosingOwner = outer.owner
        state.hookBoundary = outer.state.hookBoundary
    }

    /// The source for a call through a resolver of this resolution where it is not running:
    /// the running call's source, or, once the call has ended, the source if it still exists.
    /// - Throws: `container-released` when the source is gone.
    func sourceForNewCall(_ key: @autoclosure () -> ServiceKey) throws -> any ResolutionSource {
        let source = escape.withLock { escape -> (any ResolutionSource)? in
            // The call cannot end before this lock is released.
            escape.hasEnded ? escape.source : callSource
        }
        guard let source else { throw ResolutionError.containerReleased(for: key()) }
        return source
    }

    /// Marks the call over for resolvers that escaped it: they hold the source weakly from now on,
    /// and nothing else. An instance that keeps its resolver keeps this resolution, so what the
    /// call held (registries, whose entries keep their instances; `.graph` and kept instances;
    /// the observer) is let go here: kept, it would keep the container's registrations, and
    /// that instance itself, alive after the container.
    func endForEscapedResolvers() {
        fillSharedGraph()
        let source = callSource
        escape.withLock { escape in
            escape.hasEnded = true
            escape.source = source
            escape.asyncCallSource = nil
        }
        reset()
        state.observer = nil
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

    /// Whether the caller may use this resolution's state now (see `UnsafeResolutionState`): it
    /// runs on this thread, or the caller's task holds its async turn.
    var isUsedByItsOwner: Bool {
        ResolutionSlot.holds(self) || (asyncTurn?.withLock { $0 > 0 } ?? false)
    }

    /// The source of this async resolution, for a call made beside it (from another task of a
    /// factory it awaits); `nil` once it finished, when such a call is a new one.
    package var sourceForConcurrentCall: (any ResolutionSource)? {
        escape.withLock { $0.asyncCallSource ?? $0.source }
    }

    /// Ends a turn that ``takeAsyncTurn(_:)`` gave.
    package func endAsyncTurn(_ turn: Int) {
        asyncTurn?.withLock { if $0 != Int.min { $0 = turn } }
    }

    /// The registry of the container `level` steps up from the source, fetched once per resolution.
    func registry(at level: Int, fetch: () -> Registry) -> Registry {
        if level == 0 {
            if let registry = state.registry { return registry }
            let fetched = fetch()
            state.registry = fetched
            return fetched
        }
        while state.ancestorRegistries.count < level {
            state.ancestorRegistries.append(fetch())
        }
        return state.ancestorRegistries[level - 1]
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { self }

    /// Whether a nested resolve may use this resolution: it is running on this thread, innermost.
    /// A resolver used anywhere else starts a new top-level call (which continues the path of
    /// whatever runs on that thread).
    package var isCurrent: Bool { ResolutionThread.isRunning(self) }

    /// Ends a resolution that `init(source:)` made. `resolution` is its caller's reference,
    /// the only one unless a resolver of it escaped its factory: only then does the resolution
    /// hold its source weakly for later calls (a weak reference gives the source a side table,
    /// which slows every later retain of it).
    package static func finish(_ resolution: inout Resolution) {
        resolution.asyncTurn?.withLock { $0 = Int.min }
        resolution.escape.withLock { $0.asyncCallSource = nil }
        resolution.endObserving()
        if isKnownUniquelyReferenced(&resolution) {
            resolution.fillSharedGraph()
        } else {
            resolution.endForEscapedResolvers()
        }
    }

    /// Tells the observer the resolution is over, and lets it go.
    func endObserving() {
        if _slowPath(state.observer != nil) { endObservingNow() }
    }

    @inline(never)
    private func endObservingNow() {
        state.observer.take()?.resolutionEnded()
    }

    /// Clears what one call left, so the thread's next call starts afresh.
    func reset() {
        if _slowPath(state.sharedGraphHandle != nil) { fillSharedGraph() }
        state.steps.removeAll()
        if !state.graph.isEmpty { state.graph.removeAll() }
        if !state.ancestorRegistries.isEmpty { state.ancestorRegistries.removeAll(keepingCapacity: true) }
        if state.registry != nil { state.registry = nil }
        state.directCache = nil
        // Between calls it holds no reference to the last source.
        callSource = nil
        state.hookBoundary = 0
        if _slowPath(state.remadeInHooks != 0 || state.backedOff != nil) {
            state.remadeInHooks = 0
            state.backedOff = nil
        }
    }
}
