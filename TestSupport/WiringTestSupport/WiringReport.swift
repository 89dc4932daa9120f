import Wiring

/// What `verifyWiring()` found: every problem at once, what it built and what it could not.
///
/// Its description is the whole report, the same on every run:
///
/// ```text
/// Wiring: 3 registrations checked, 1 problem, 1 unchecked (incomplete: 1 registration is unchecked)
///
/// factory-failed: the factory of Database threw: no such file
///   path: Database
///   registered at: App/Setup.swift:20 (Database)
///   fix: make the factory of Database succeed here (the error above is the factory's own), or catch it inside the factory.
///
/// unchecked (not built, so not verified):
///   Greeting (arguments: String) at App/Setup.swift:31: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(Greeting.self, arguments: <String>) }`
/// ```
///
/// A registration left unchecked makes the report incomplete: the wiring is proven only once
/// every registration was built.
public struct WiringReport: Sendable, CustomStringConvertible {
    /// Why a registration was not built.
    struct Unchecked: Sendable {
        let key: ServiceKey
        let site: RegistrationSite
        let reason: String
        /// Whether sample arguments would get it built: it takes runtime arguments and none were given.
        var needsSample = false
    }

    /// Everything found wrong, each once, in the order found (registration order).
    public let problems: [WiringProblem]
    /// The registrations built, in registration order (parents' first), problems or not.
    public let checked: [ServiceKey]
    /// The registrations not built: those taking runtime arguments with no sample supplied, and
    /// those whose factory (or a dependency's) must be awaited. Not problems, but not verified
    /// either, so the report is not complete while there are any.
    public let unchecked: [ServiceKey]
    private let uncheckedReasons: [Unchecked]
    /// The live-only registrations (`.liveOnly()`) that nothing in the test container overrides
    /// or fakes: their factories are never run, so only what their autowired initializers declare
    /// was checked. Not problems, and not counted as unchecked; what needs them is.
    public let liveOnly: [ServiceKey]
    private let liveOnlyReasons: [Unchecked]
    /// What the check noticed that is no problem but probably not meant: a registration a later
    /// one for its key replaced (`duplicate-registration`).
    public let warnings: [WiringWarning]

    init(
        problems: [WiringProblem], checked: [ServiceKey], unchecked: [Unchecked], liveOnly: [Unchecked] = [],
        warnings: [WiringWarning] = []
    ) {
        self.problems = problems
        self.checked = checked
        self.unchecked = unchecked.map(\.key)
        self.uncheckedReasons = unchecked
        self.liveOnly = liveOnly.map(\.key)
        self.liveOnlyReasons = liveOnly
        self.warnings = warnings
    }

    /// Whether every registration was built, and without a problem: `false` while any
    /// registration is ``unchecked``, as nothing proves it can be built.
    public var isComplete: Bool { problems.isEmpty && unchecked.isEmpty }

    /// The unchecked registrations that sample arguments would get built, in registration order.
    package var needingSamples: [ServiceKey] {
        uncheckedReasons.filter(\.needsSample).map(\.key)
    }

    /// The whole report: a header that counts what was checked (and says when unchecked
    /// registrations leave it incomplete), every problem, then what was left unchecked and why.
    public var description: String {
        var header = "Wiring: \(Self.count(checked.count, "registration")) checked, "
            + "\(Self.count(problems.count, "problem")), \(unchecked.count) unchecked"
        if !unchecked.isEmpty {
            let verb = unchecked.count == 1 ? "is" : "are"
            header += " (incomplete: \(Self.count(unchecked.count, "registration")) \(verb) unchecked)"
        }
        if !liveOnly.isEmpty { header += ", \(liveOnly.count) live-only not run" }
        if !warnings.isEmpty { header += ", \(Self.count(warnings.count, "warning"))" }
        var sections = [header]
        sections += problems.map(\.description)
        if let uncheckedSection { sections.append(uncheckedSection) }
        if !liveOnlyReasons.isEmpty {
            let lines = liveOnlyReasons.map { "  \($0.key) at \($0.site): \($0.reason)" }
            sections.append((["live-only (not run):"] + lines).joined(separator: "\n"))
        }
        if !warnings.isEmpty {
            sections.append((["warnings:"] + warnings.map { "  " + $0.description.replacingOccurrences(of: "\n", with: "\n  ") })
                .joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    /// What was left unchecked and why, one registration a line under a heading; `nil` when
    /// every registration was built.
    var uncheckedSection: String? {
        guard !uncheckedReasons.isEmpty else { return nil }
        let lines = uncheckedReasons.map { "  \($0.key) at \($0.site): \($0.reason)" }
        return (["unchecked (not built, so not verified):"] + lines).joined(separator: "\n")
    }

    /// `1 problem`, `2 problems`: a number and its noun, plural unless the number is 1.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
