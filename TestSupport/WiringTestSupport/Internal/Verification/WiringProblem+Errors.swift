import Wiring

extension WiringProblem {
    /// The kind of problem a resolution error is, with its identifier; `nil` for one that only
    /// needs `await`, or met a live-only registration verification does not run: no problem.
    static func kind(of error: ResolutionError) -> (kind: Kind, identifier: String)? {
        switch error.reason {
        case .notRegistered: (.missingDependency, "missing-dependency")
        case .circularDependency: (.cycle, "cycle")
        case .factoryFailed: (.factoryFailed, "factory-failed")
        case .typeMismatch, .weakScopeRequiresClass, .noContainer, .tooDeep, .containerReleased: (.other, error.identifier)
        case .requiresAwait, .liveOnly: nil
        }
    }

    /// The problem a failed resolution shows, in the words of its `ResolutionError`.
    /// - Parameters:
    ///   - error: What the resolution threw; never `requiresAwait`, which is no problem.
    ///   - siteOf: Where the registration of a key was made, if it is registered.
    init(_ error: ResolutionError, siteOf: (ServiceKey) -> RegistrationSite?) {
        let (kind, identifier) = Self.kind(of: error) ?? (.other, error.identifier)
        let path = error.path.isEmpty ? [error.key] : error.path
        // The step that asked for the key at fault, for problems its registration must fix.
        let asking = path.dropLast().last.flatMap(siteOf)
        let failing = error.site ?? siteOf(error.key)
        switch error.reason {
        case .notRegistered(let nearMisses):
            self.init(
                kind: kind, identifier: identifier, path: path, site: asking, message: error.summary,
                details: Self.registered(nearMisses, for: error.key), fix: error.fix)
        case .circularDependency(let cycle):
            self.init(
                kind: kind, identifier: identifier, path: path, site: asking, message: error.summary,
                details: ["cycle: " + BoundedText.chain(cycle)], fix: error.fix)
        default:
            self.init(
                kind: kind, identifier: identifier, path: path, site: failing, message: error.summary, fix: error.fix)
        }
    }

    /// A check that ended with something other than a `ResolutionError`, which resolutions make
    /// of every failure: only a safety net.
    /// - Parameters:
    ///   - error: What the check threw.
    ///   - key: The registration being checked.
    ///   - site: Where it was registered.
    static func unexpected(_ error: any Error, verifying key: ServiceKey, site: RegistrationSite?) -> WiringProblem {
        WiringProblem(
            kind: .other, identifier: "unexpected-error", path: [key], site: site,
            message: "building \(key) threw \(error)",
            fix: "report this: verifyWiring() expects every failure to be a ResolutionError.")
    }

    /// A sample for a key nothing registers: a typo in its argument types or name would
    /// otherwise leave the registration it meant unchecked without a word.
    /// - Parameters:
    ///   - key: The sample's key.
    ///   - nearMisses: The registrations of the same type.
    /// `entry` keeps one instance for all runtime arguments, as they are not all `Hashable`.
    static func scopeIgnoresArguments(_ entry: RegistrationEntry) -> WiringProblem {
        let text = ScopeIgnoringArguments(entry)
        return WiringProblem(
            kind: .other, identifier: ScopeIgnoringArguments.identifier, path: [entry.key], site: entry.site,
            message: text.message, fix: text.fix)
    }

    static func unusedSample(_ key: ServiceKey, nearMisses: [ResolutionError.RegisteredKey]) -> WiringProblem {
        WiringProblem(
            kind: .other, identifier: "unused-sample", path: [key], site: nil,
            message: "a sample was added for \(key), but nothing registers that key",
            details: registered(nearMisses, for: key),
            fix: unusedSampleFix(key, nearMisses: nearMisses))
    }

    /// What to do about a sample for a key nothing registers: the suggestion a resolve of that
    /// key would get, worded for a sample.
    private static func unusedSampleFix(_ key: ServiceKey, nearMisses: [ResolutionError.RegisteredKey]) -> String {
        guard !nearMisses.isEmpty else { return "remove the sample, or register \(key)." }
        let suggestion = RegistrationSuggestion(for: key, registered: nearMisses.map(\.key))
        if let mismatch = suggestion?.argumentsMismatch(for: key, asker: "this sample"),
            let example = suggestion?.example {
            return mismatch + ": give it matching ones, as in `\(example.call("samples.add"))`, or remove it."
        }
        let alternatives = "give the sample the name and argument types of one of the keys registered above, or remove it."
        return suggestion?.didYouMean.map { "\($0) If not, \(alternatives)" } ?? alternatives
    }

    /// The registrations of a key's type, laid out as `ResolutionError` shows its near misses.
    private static func registered(_ keys: [ResolutionError.RegisteredKey], for key: ServiceKey) -> [String] {
        guard !keys.isEmpty else { return [] }
        return ["registered for \(key.typeDescription):"] + ResolutionError.lines(listing: keys).map { "  " + $0 }
    }

    /// The same problem as found by verifying `path[start]`, the registration closest to it.
    func starting(at start: Int) -> WiringProblem {
        guard start > 0 else { return self }
        return WiringProblem(
            kind: kind, identifier: identifier, path: Array(path[start...]), site: site, message: message,
            details: details, fix: fix, heldThrough: heldThrough)
    }
}
