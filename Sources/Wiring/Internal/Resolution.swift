/// The state of one top-level `resolve` call: the environment it resolves in, the path of keys
/// being resolved (for cycles and error messages), the instances of `.graph` scope and the
/// registries of the source's ancestors as the call first saw them. Nested resolves through the
/// resolver a factory receives share it, and so does a top-level call started on the same
/// thread while it runs (through a `Provider`, a `Lazy` or a captured container): see
/// `Resolution.run(from:environment:sharing:_:)`. Concurrent top-level calls never share one.
///
/// A resolution is made for its call and holds the call's environment strongly until the call
/// ends; then it lets go of everything it held. It is also the resolver its factories receive:
/// one kept past the call starts new calls from the source, held weakly from the start.
package final class Resolution: UnsafeResolutionState, @unchecked Sendable {
    /// Where a resolver used after the call, or from another thread, starts new calls: weak, so
    /// that an instance keeping its resolver does not keep its container. (Set once in `init`.)
    private weak var sourceForLaterCalls: (any ResolutionSource)?

    /// The deepest path a resolution follows before it stops with `resolution-too-deep`: far
    /// beyond any real object graph. A thread whose stack is nearly full stops it sooner
    /// (see `stackFloor`).
    package static let maximumDepth = 1_000

    /// A resolution for one call in `environment`: a synchronous one on the calling thread, whose
    /// stack floor it takes, or (`async`) one whose turns tasks take.
    init(_ environment: ResolutionEnvironment, async: Bool = false) {
        asyncTurn = async ? LockedState(0) : nil
        sourceForLaterCalls = environment.source
        super.init(ResolutionState(environment: environment, stackFloor: async ? 0 : UnsafeStackBounds.currentThreadFloor()))
    }

    /// Who claims kept instances for this resolution.
    var owner: ObjectIdentifier { state.enclosingOwner ?? ObjectIdentifier(self) }

    /// What the call resolves in; asked only while it runs.
    var environment: ResolutionEnvironment {
        guard let environment = state.environment else { preconditionFailure("a resolution was used after its call ended") }
        return environment
    }

    /// The source of the call running now; asked only while it runs.
    package var source: any ResolutionSource { environment.source }

    /// What follows the steps of this resolution, if anything does.
    package var observer: (any ResolutionObserver)? { state.environment?.observer }

    /// The keys being resolved, from the top-level request down.
    package var path: [ServiceKey] { state.steps.map(\.key) }

    /// The registrations being resolved, from the top-level request down.
    package var pathEntries: [RegistrationEntry] { Array(state.steps) }

    /// Starts this resolution below `ancestors`, so that its cycles and errors count them.
    package func continuePath(_ ancestors: [RegistrationEntry]) {
        state.steps.append(contentsOf: ancestors)
    }

    /// Makes this resolution part of `outer`, which started it and runs below it on the stack:
    /// its path continues `outer`'s, and it claims kept instances as `outer` does.
    func continueResolution(_ outer: Resolution) {
        continuePath(outer.pathEntries)
        state.enclosingOwner = outer.owner
        state.hookBoundary = outer.state.hookBoundary
    }

    /// The source for a call through a resolver of this resolution where it is not running.
    /// - Throws: `container-released` when the source is gone.
    func sourceForNewCall(_ key: @autoclosure () -> ServiceKey) throws -> any ResolutionSource {
        guard let source = sourceForLaterCalls else { throw ResolutionError.containerReleased(for: key()) }
        return source
    }

    /// Ends the call: tells the observer, gives the `.graph` objects to the lazies and providers
    /// the call made, and lets go of everything the call held (an instance that keeps its resolver
    /// keeps this resolution, which must not keep the container's registrations or instances).
    func end() {
        asyncTurn?.withLock { $0 = Int.min }
        if let observer = state.environment?.observer { observer.resolutionEnded() }
        fillSharedGraph()
        state.environment = nil
        state.steps.removeAll()
        state.graph.removeAll()
        state.ancestorRegistries.removeAll()
    }

    /// The registry of `container`, `level` steps up from the source, as this call first saw it.
    /// A lookup walks up one level at a time, so each ancestor's is fetched once, in order.
    func registry(of container: Container, at level: Int) -> Registry {
        if level == 0 { return environment.registry }
        assert(state.ancestorRegistries.count >= level - 1, "ancestors are looked up in order")
        if state.ancestorRegistries.count < level { state.ancestorRegistries.append(container.registry) }
        return state.ancestorRegistries[level - 1]
    }

    // MARK: Async turns

    /// How many async calls are under way in this resolution, each waiting on the next: only a
    /// call from the innermost one's factory may resolve here. Concurrent calls of one factory
    /// would otherwise change the path and the `.graph` instances at the same time. Only an
    /// async resolution has turns. `Int.min` once the resolution has finished.
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

    /// Whether the caller may use this resolution's state now (see `UnsafeResolutionState`): it
    /// runs on this thread, or the caller's task holds its async turn.
    var isUsedByItsOwner: Bool {
        UnsafeResolutionSlot.isRunning(self) || (asyncTurn?.withLock { $0 > 0 } ?? false)
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { self }

    /// Whether a nested resolve may use this resolution: it is the innermost one running on this
    /// thread. A resolver used anywhere else starts a new top-level call (which continues the
    /// path of whatever runs on that thread).
    package var isCurrent: Bool { UnsafeResolutionSlot.isRunning(self) }
}
