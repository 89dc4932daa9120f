/// Each thread's resolution: the innermost one running on it, or the idle one it reuses.
///
/// A top-level call on a thread where a resolution is running (a factory calling a `Provider`,
/// reading a `Lazy`, or resolving from a container it captured) continues that resolution: from
/// the same source it resolves inside it, sharing its path and `.graph` instances; from another
/// source it gets a resolution of its own that starts below the running one's path. Either way
/// a cycle through it is a `circular-dependency` error, never a stack overflow.
///
/// The thread's slot (see `ResolutionSlot`) points at the innermost running resolution, or at
/// an idle one. A resolution whose resolver escaped its call is never put back in the slot.
package enum ResolutionThread {
    /// Whether `resolution` is the innermost one running on this thread.
    static func isRunning(_ resolution: Resolution) -> Bool {
        ResolutionSlot.holds(resolution, key: resolution.threadSlot) && resolution.state.isActive
    }

    /// Runs a call again after it backed off from a wait that would never end, once the
    /// instance it waited for is free (see `Creations`); a few times at most.
    @inline(never)
    fileprivate static func runAgain<Result>(_ resolution: Resolution, _ body: (Resolution) throws -> Result) throws -> Result {
        var attempts = 0
        while true {
            guard let cycle = resolution.state.backedOff else { preconditionFailure("a call runs again only after it backed off") }
            resolution.state.backedOff = nil
            resolution.state.steps.removeAll()
            resolution.state.graph.removeAll()
            resolution.state.hookBoundary = 0
            resolution.state.remadeInHooks = 0
            Creations.waitUntilFree(cycle.key)
            attempts += 1
            do {
                return try body(resolution)
            } catch where resolution.state.backedOff != nil && attempts < 100 {
                continue
            }
        }
    }

    /// Ends a call on the thread's own resolution, and keeps it for the next call unless a
    /// resolver of it escaped.
    fileprivate static func finishThreadCall(_ taken: __owned Resolution) {
        var resolution = consume taken
        resolution.state.isActive = false
        resolution.endObserving()
        guard ResolutionSlot.holdsOnly(&resolution) else {
            ResolutionSlot.point(at: nil)
            resolution.endForEscapedResolvers()
            return
        }
        resolution.reset()
    }

    /// A top-level call made while `outer` runs on this thread.
    @inline(never)
    fileprivate static func runNested<Result>(
        in outer: Resolution, source: any ResolutionSource, environment: () -> ResolutionEnvironment,
        _ body: (Resolution) throws -> Result
    ) throws -> Result {
        if outer.source === source { return try body(outer) }
        var environment = environment()
        if let outerObserver = outer.observer, let entry = outer.state.steps.last {
            // A factory bypassing its resolver: its observer hears which key, from the call's
            // first step, unless the captured source observes the call itself.
            if environment.observer == nil {
                let watcher = BypassWatcher { key in outerObserver.factory(of: entry, resolved: key, from: source) }
                environment = environment.observed(by: watcher)
            } else {
                outerObserver.factory(of: entry, resolved: nil, from: source)
            }
        }
        var nested = Resolution(stackFloor: outer.state.stackFloor)
        nested.begin(in: environment)
        nested.continueResolution(outer)
        ResolutionSlot.point(at: nested)
        defer {
            ResolutionSlot.point(at: outer)
            nested.state.isActive = false
            // A back-off starts the outermost call again (see `Creations`).
            if outer.state.backedOff == nil { outer.state.backedOff = nested.state.backedOff }
            nested.endObserving()
            // Only a resolver that escaped needs the source held weakly; a weak reference gives
            // the source a side table, which makes every later retain of it slower.
            if isKnownUniquelyReferenced(&nested) { nested.fillSharedGraph() } else { nested.endForEscapedResolvers() }
        }
        return try body(nested)
    }

    /// Whether a resolution runs on this thread (its steps may hold claims other threads wait for).
    static var isResolving: Bool {
        ResolutionSlot.current?.state.isActive ?? false
    }

    /// The source of the resolution running on this thread, if one runs: what a property
    /// wrapper of an object its factory makes resolves from, continuing that resolution. In a
    /// task an async factory started while the factory runs (see ``inRunningAsyncFactory(_:)``),
    /// the factory's source: a call of its own, as that task's calls of the factory's resolver are.
    static var runningSource: (any ResolutionSource)? {
        if let resolution = ResolutionSlot.current, resolution.state.isActive { return resolution.source }
        return AsyncResolver.runningFactory?.resolution?.sourceForConcurrentCall
    }

    /// Runs `body`, synchronous code of the async factory running in this task (an object it
    /// makes, resolving its `@Injected` properties), in the factory's resolution, as a synchronous
    /// factory's code runs in its own: the factory's registration is what needs, records and
    /// verifies what `body` resolves. Runs it as it is when a resolution runs on this thread, or
    /// this is not an async factory's own task (none runs, or this is a task it started).
    static func inRunningAsyncFactory<Result>(_ body: () -> Result) -> Result {
        guard !isResolving, let factory = AsyncResolver.runningFactory, case .taken(let resolution) = factory.takeTurn()
        else { return body() }
        defer { factory.endTurn(of: resolution) }
        return withAsyncResolution(resolution, body)
    }

    /// Tells the observer of the resolution running on this thread, if one runs, that an
    /// `@Injected` property declared at `site` could not be resolved.
    static func notePropertyInjectionFailure(_ error: ResolutionError, declaredAt site: RegistrationSite) {
        guard let resolution = ResolutionSlot.current, resolution.state.isActive else { return }
        resolution.observer?.propertyInjectionFailed(error, declaredAt: site)
    }

    /// Runs the synchronous part of an async resolution on this thread, as its innermost
    /// resolution, so that nested resolves from its factories continue it.
    static func withAsyncResolution<Result>(_ resolution: Resolution, _ body: () throws -> Result) rethrows -> Result {
        let previous = ResolutionSlot.current
        ResolutionSlot.point(at: resolution)
        defer { ResolutionSlot.point(at: previous) }
        return try body()
    }
}

extension Resolution {
    /// Runs a synchronous top-level call from `source` on this thread, the one way every
    /// synchronous call starts: in the resolution running on the thread if it resolves from the
    /// same source; else in `environment` (by default the one the source makes), in a resolution
    /// below the running one, or in the thread's idle one. A call that starts on an idle thread
    /// puts `graph`'s objects, if any, in its `.graph` instances first.
    @inline(__always)
    package static func run<Result>(
        from source: any ResolutionSource,
        in environment: @autoclosure () -> ResolutionEnvironment? = nil,
        sharing graph: SharedGraph? = nil,
        _ body: (Resolution) throws -> Result
    ) throws -> Result {
        func made() -> ResolutionEnvironment {
            if let given = environment() { return given }
            return source.makeEnvironment()
        }
        let resolution: Resolution
        if let held = ResolutionSlot.current {
            if _slowPath(held.state.isActive) {
                return try ResolutionThread.runNested(in: held, source: source, environment: made, body)
            }
            resolution = held
        } else {
            resolution = Resolution()
            ResolutionSlot.point(at: resolution)
        }
        resolution.begin(in: made())
        if let graph { graph.seed(resolution) }
        // The frame's reference is handed on (`consume`), so that at the end it is the only one
        // unless a resolver escaped: a copy left here would make every call look escaped. The
        // result is returned where it was made (assigned to a variable declared before the `do`,
        // it was copied once, with a retain and a release).
        do {
            let result = try body(resolution)
            ResolutionThread.finishThreadCall(consume resolution)
            return result
        } catch {
            guard resolution.state.backedOff != nil else {
                ResolutionThread.finishThreadCall(consume resolution)
                throw error
            }
            do {
                let result = try ResolutionThread.runAgain(resolution, body)
                ResolutionThread.finishThreadCall(consume resolution)
                return result
            } catch {
                ResolutionThread.finishThreadCall(consume resolution)
                throw error
            }
        }
    }
}
