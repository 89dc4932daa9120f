/// How a resolution obtained an instance.
package enum ResolutionOutcome: Sendable {
    /// The factory ran.
    case created
    /// A stored scope (`.container`, `.weak`, custom) already held it.
    case cached
    /// An earlier step of the same top-level resolve made it (`.graph`).
    case sharedInGraph
}

/// Follows a resolution step by step; a test container records the trace this way.
package protocol ResolutionObserver: AnyObject, Sendable {
    /// A registration was found and is about to be resolved below `path` (made only if asked
    /// for: recording a trace does not need it, and it costs an allocation per step).
    func willResolve(_ found: Lookup, path: @autoclosure () -> [ServiceKey])
    /// The step begun by the last unfinished `willResolve` gave `instance`. (Generic, so that an
    /// observer boxes it as `Any` only if it needs to.)
    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome)
    /// The step for `key` failed; when nothing was registered, no `willResolve` came first.
    func didFail(_ key: ServiceKey, error: any Error)
    /// The top-level call is over: no step follows.
    func resolutionEnded()
    /// The factory or hook of `entry`, running in this resolution, resolved `key` (`nil` when
    /// the call could not be watched) from `source`, a container it captured, instead of
    /// through the resolver it was given. That call continues this resolution's path, but not
    /// its observer: what it makes is not recorded here.
    func factory(of entry: RegistrationEntry, resolved key: ServiceKey?, from source: any ResolutionSource)
    /// An `@Injected` property, declared at `site`, of an object the open step's factory makes
    /// could not be resolved: the factory went on, and the property fails when it is read.
    func propertyInjectionFailed(_ error: ResolutionError, declaredAt site: RegistrationSite)
}

/// A step an observer watches: told before the step, and after it what the step gave or threw.
/// The one place the engine tells an observer of a step, whether the step blocks or awaits.
struct ObservedStep {
    private let observer: any ResolutionObserver
    private let key: ServiceKey

    /// Tells `observer` that the step of `found` begins, at the end of `path`.
    init(_ found: Lookup, by observer: any ResolutionObserver, path: @autoclosure () -> [ServiceKey]) {
        self.observer = observer
        self.key = found.entry.key
        observer.willResolve(found, path: path())
    }

    /// Tells the observer what the step gave and how, and gives it back.
    func gave<Service>(_ instance: Service, _ outcome: ResolutionOutcome) -> Service {
        observer.didResolve(instance, outcome: outcome)
        return instance
    }

    /// Tells the observer the step failed, and gives the error back to throw.
    func failed(_ error: any Error) -> any Error {
        observer.didFail(key, error: error)
        return error
    }
}

extension ResolutionObserver {
    package func resolutionEnded() {}
    package func factory(of entry: RegistrationEntry, resolved key: ServiceKey?, from source: any ResolutionSource) {}
    package func propertyInjectionFailed(_ error: ResolutionError, declaredAt site: RegistrationSite) {}
}

/// Follows the call a factory started on a container it captured (see
/// ``ResolutionObserver/factory(of:resolved:from:)``), only to tell the observer of the
/// factory's own resolution which key that call resolved: the first step it takes or fails.
final class BypassWatcher: ResolutionObserver {
    private let report: @Sendable (ServiceKey) -> Void
    private let reported = LockedState(false)

    init(report: @escaping @Sendable (ServiceKey) -> Void) {
        self.report = report
    }

    func willResolve(_ found: Lookup, path: @autoclosure () -> [ServiceKey]) {
        reportOnce(found.entry.key)
    }

    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome) {}

    func didFail(_ key: ServiceKey, error: any Error) {
        reportOnce(key)
    }

    private func reportOnce(_ key: ServiceKey) {
        let first = reported.withLock { reported in
            defer { reported = true }
            return !reported
        }
        if first { report(key) }
    }
}
