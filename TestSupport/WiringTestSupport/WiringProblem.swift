import Wiring

/// One thing `verifyWiring()` found wrong, with the path that reaches it, where to look and what
/// to do about it.
///
/// Its description reads like a compiler diagnostic:
///
/// ```text
/// missing-dependency: no registration for Engine
///   path: Car -> Engine
///   registered for Engine:
///     Engine (name: "v8")  at App/Setup.swift:12
///   registered at: App/Setup.swift:14 (Car)
///   fix: register it with `container.register(Engine.self) { r in … }`, or ask for one of the keys registered above.
/// ```
public struct WiringProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Hashable, Sendable {
        /// Something a factory resolves is not registered.
        case missingDependency
        /// Building a registration needs the registration itself.
        case cycle
        /// A factory (or an `initCompleted` hook) threw.
        case factoryFailed
        /// A longer-lived instance holds a shorter-lived one, which then lives as long as it does:
        /// a `.container` singleton holding a `.transient`, `.weak` or custom-scoped service.
        case captiveDependency
        /// A service came from `test.fakes` while `fakes.isStrict` is set.
        case faked
        /// Anything else: a factory made a value of the wrong type, a `.weak` registration made a
        /// value type, a sample matched no registration.
        case other
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// A short, stable name for the problem: `missing-dependency`, `cycle`, `factory-failed`,
    /// `captive-dependency` or `faked`; for ``Kind/other``, the more precise one of the failure,
    /// such as `type-mismatch`, `weak-scope-requires-class` or `unused-sample`.
    public let identifier: String
    /// The registration whose verification found it: the one closest to the problem, so a
    /// problem deep in the graph is reported once, not once for every registration above it.
    public let key: ServiceKey
    /// Every key from ``key`` down to the one at fault, in order.
    public let path: [ServiceKey]
    /// Where the registration to look at was made: the one that needs the missing or faked
    /// service, closes the cycle or holds the captive one, or whose factory failed.
    public let site: RegistrationSite?
    /// What is wrong, in one line.
    public let message: String
    /// More lines, when there is more to show: the cycle, or the registrations that exist for a
    /// missing key's type.
    public let details: [String]
    /// What to do about it, in one sentence.
    public let fix: String
    /// For a captive dependency, how many services that keep nothing of their own (`.graph`,
    /// `.transient`) stand between the instance that keeps it and the captive one, at the end
    /// of ``path``: the keeping one is the registration at fault.
    let heldThrough: Int

    init(
        kind: Kind, identifier: String, path: [ServiceKey], site: RegistrationSite?, message: String,
        details: [String] = [], fix: String, heldThrough: Int = 0
    ) {
        self.heldThrough = heldThrough
        self.kind = kind
        self.identifier = identifier
        self.key = path[0]
        self.path = path
        self.site = site
        self.message = message
        self.details = details
        self.fix = fix
    }

    /// The registration ``site`` belongs to: the failing key itself for a factory that failed,
    /// the instance that keeps a captive one, else the step that asked for the key at fault.
    var siteOwner: ServiceKey? {
        switch kind {
        case .factoryFailed, .other: path.last
        case .missingDependency, .cycle, .faked: path.dropLast().last
        case .captiveDependency: path.dropLast(1 + heldThrough).last
        }
    }

    /// The problem as a compiler-style diagnostic: identifier and message, path, details, site
    /// and fix, one per line.
    public var description: String {
        var lines = ["\(identifier): \(message)"]
        lines.append("  path: " + BoundedText.chain(path))
        lines += details.map { "  " + $0 }
        if let site {
            lines.append("  registered at: \(site)" + (siteOwner.map { " (\($0))" } ?? ""))
        }
        lines.append("  fix: \(fix)")
        return lines.joined(separator: "\n")
    }
}
