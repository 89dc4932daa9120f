/// How a synchronous call starts: the one entry every top-level resolve takes.
///
/// A top-level call on a thread where a resolution is running (a factory calling a `Provider`,
/// reading a `Lazy`, or resolving from a container it captured) continues that resolution: from
/// the same source it resolves inside it, sharing its path and `.graph` instances; from another
/// source it gets a resolution of its own, in that source's environment, that starts below the
/// running one's path. Either way a cycle through it is a `circular-dependency` error, never a
/// stack overflow.
extension Resolution {
    /// Runs a synchronous top-level call from `source` on this thread: inside the resolution
    /// running here if it is `source`'s, else in a new resolution in `environment` (built by
    /// `source` when not given), which holds it until the call ends. A new resolution starts
    /// with the objects of `graph`, if given (a `Lazy` used after the resolve that made it).
    package static func run<Result>(
        from source: any ResolutionSource, environment: ResolutionEnvironment? = nil, sharing graph: SharedGraph? = nil,
        _ body: (Resolution) throws -> Result
    ) throws -> Result {
        let outer = UnsafeResolutionSlot.running
        if let outer, outer.source === source { return try body(outer) }
        var environment = environment ?? source.makeEnvironment()
        if let outer, let outerObserver = outer.observer, let entry = outer.state.steps.last {
            // A factory bypassing its resolver: its observer hears which key, from the call's
            // first step, unless the captured source observes the call itself.
            if environment.observer == nil {
                environment = environment.observed(by: BypassWatcher { key in
                    outerObserver.factory(of: entry, resolved: key, from: source)
                })
            } else {
                outerObserver.factory(of: entry, resolved: nil, from: source)
            }
        }
        let resolution = Resolution(environment)
        if let outer { resolution.continueResolution(outer) }
        graph?.seed(resolution)
        defer {
            // A back-off starts the outermost call again (see `Creations`).
            if let outer, outer.state.backedOff == nil { outer.state.backedOff = resolution.state.backedOff }
            resolution.end()
        }
        return try UnsafeResolutionSlot.withRunning(resolution) {
            do {
                return try body(resolution)
            } catch where outer == nil && resolution.state.backedOff != nil {
                return try runAgain(resolution, body)
            }
        }
    }

    /// Runs a call again after it backed off from a wait that would never end, once the
    /// instance it waited for is free (see `Creations`); a few times at most.
    private static func runAgain<Result>(_ resolution: Resolution, _ body: (Resolution) throws -> Result) throws -> Result {
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
}

/// What runs on the calling thread, for the code that asks outside a resolve.
package enum ResolutionThread {
    /// The source of the resolution running on this thread, if one runs: what a property
    /// wrapper of an object its factory makes resolves from, continuing that resolution.
    static var runningSource: (any ResolutionSource)? {
        UnsafeResolutionSlot.running?.source
    }

    /// Tells the observer of the resolution running on this thread, if one runs, that an
    /// `@Injected` property declared at `site` could not be resolved.
    static func notePropertyInjectionFailure(_ error: ResolutionError, declaredAt site: RegistrationSite) {
        UnsafeResolutionSlot.running?.observer?.propertyInjectionFailed(error, declaredAt: site)
    }

    /// Runs the synchronous part of an async resolution on this thread, as its innermost
    /// resolution, so that nested resolves from its factories continue it.
    static func withAsyncResolution<Result>(_ resolution: Resolution, _ body: () throws -> Result) rethrows -> Result {
        try UnsafeResolutionSlot.withRunning(resolution, body)
    }
}
