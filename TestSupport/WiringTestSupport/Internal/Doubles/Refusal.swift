import Wiring

/// What a test container answers a key with instead of running its registration: a live-only
/// one that no override or fake answers, or one a replaced module made. Resolving it throws.
enum Refusal {
    /// Stands in for `entry`, a live-only registration: resolving it throws `live-only`, and
    /// notes the refusal in `log`, if given, as a finding that fails the running test even when
    /// the code under test catches the error.
    static func liveOnly(_ entry: RegistrationEntry, noting log: WarningLog? = nil) -> RegistrationEntry {
        refusing(entry) { path in
            let error = ResolutionError(key: entry.key, path: path, reason: .liveOnly, site: entry.site)
            // A probe (`assertScope`) reports what it meets itself: not a finding of the test's.
            if FindingRouter.reportedElsewhere == nil { log?.note(.liveOnly(error, site: nil)) }
            return error
        }
    }

    /// Stands in for `entry`, which the module `replaced` made, hidden by `replacement`:
    /// resolving it throws `not-registered`.
    static func hidden(_ entry: RegistrationEntry) -> RegistrationEntry {
        refusing(entry, liveOnly: false) { path in
            ResolutionError(key: entry.key, path: path, reason: .notRegistered(nearMisses: []))
        }
    }

    /// Whether `entry` stands in for a registration a replaced module made: to the test, nothing
    /// registers its key (a live-only one is registered, only not run here).
    static func isHidden(_ entry: RegistrationEntry) -> Bool {
        entry.options.isRefusal && !entry.options.isLiveOnly
    }

    private static func refusing(
        _ entry: RegistrationEntry, liveOnly: Bool = true,
        _ error: @escaping @Sendable ([ServiceKey]) -> ResolutionError
    ) -> RegistrationEntry {
        var options = entry.options
        options.isRefusal = true
        options.isLiveOnly = options.isLiveOnly && liveOnly
        options.hooks = []
        let key = entry.key
        return entry.throwing(id: RegistrationEntry.nextID(), options: options) { resolver in
            let path = (try? resolver.runningResolution())?.path ?? [key]
            return error(path.last == key ? path : path + [key])
        }
    }
}
