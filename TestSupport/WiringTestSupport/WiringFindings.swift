import Foundation

/// What a test does with the findings Wiring makes about it: by default each one fails the
/// test that made it; a test that expects one allows it.
///
/// A finding is something a test container noticed about the running test: a live-only
/// registration reached (`live-only`), an override that replaces nothing
/// (`override-of-unregistered`), a layer left pushed (`unbalanced-push`) or popped twice
/// (`unbalanced-pop`), a factory that bypassed its resolver (`resolver-bypass`), code that fell
/// back to `Container.shared` (`shared-fallback`), an instance still alive at the end of a
/// `.testContainer` trait's test (`leaked-instance`). Each fails the test with its text, where it
/// was noticed, and its fix; it is also in `test.warnings`, where a test that allowed it can
/// assert it.
///
/// ```swift
/// test.wiringFindings(.allow("override-of-unregistered"))        // on one test container
/// @Test(.wiringFindings(.allow("live-only"))) func … { }        // a test or suite (WiringSwiftTesting)
/// // WIRING_ALLOW_FINDINGS=override-of-unregistered,live-only swift test   (or `all`)
/// // WIRING_FINDINGS=report swift test      (report-only: warnings, no failures)
/// ```
///
/// Findings about the app's wiring that no test caused (`duplicate-registration`,
/// `scope-ignores-arguments`) never fail a test: they are in `test.warnings` and the reports.
public struct WiringFindings: Sendable, Hashable, CustomStringConvertible {
    /// The identifiers allowed: findings with them fail no test.
    package let allowed: Set<String>
    /// Whether every finding is allowed.
    package let allowsAll: Bool
    /// Whether findings are reported without failing the test: a warning in Swift Testing, a
    /// line on standard error in XCTest.
    package let reportsOnly: Bool

    private init(allowed: Set<String> = [], allowsAll: Bool = false, reportsOnly: Bool = false) {
        self.allowed = allowed
        self.allowsAll = allowsAll
        self.reportsOnly = reportsOnly
    }

    /// The default: every finding fails the test that made it.
    public static let failTests = WiringFindings()

    /// Allows the findings with these identifiers: they fail no test, and stay in `test.warnings`.
    ///
    /// ```swift
    /// test.wiringFindings(.allow("override-of-unregistered"))
    /// ```
    public static func allow(_ identifiers: String...) -> WiringFindings {
        WiringFindings(allowed: Set(identifiers))
    }

    /// Allows every finding: none fails a test. Prefer naming the ones a test expects.
    public static let allowAll = WiringFindings(allowsAll: true)

    /// Reports every finding without failing the test: as a warning in Swift Testing, on standard
    /// error in XCTest. For adopting Wiring in a suite that is not clean yet.
    public static let reportOnly = WiringFindings(reportsOnly: true)

    /// These and `other`'s allowances together.
    package func merging(_ other: WiringFindings) -> WiringFindings {
        WiringFindings(
            allowed: allowed.union(other.allowed), allowsAll: allowsAll || other.allowsAll,
            reportsOnly: reportsOnly || other.reportsOnly)
    }

    /// Whether a finding with `identifier` fails no test.
    package func allows(_ identifier: String) -> Bool {
        allowsAll || allowed.contains(identifier)
    }

    /// `.allow(…)`, `.allowAll`, `.reportOnly` or `.failTests`, as written.
    public var description: String {
        var parts: [String] = []
        if allowsAll { parts.append(".allowAll") }
        if !allowed.isEmpty { parts.append(".allow(\(allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")))") }
        if reportsOnly { parts.append(".reportOnly") }
        return parts.isEmpty ? ".failTests" : parts.joined(separator: " + ")
    }

    // MARK: Where the policy comes from

    /// The policy of the running test, as a `.wiringFindings` trait binds it to the test's task.
    @TaskLocal package static var bound = WiringFindings.failTests

    /// The environment variable naming findings allowed in the whole run, comma-separated, or `all`.
    package static let allowVariable = "WIRING_ALLOW_FINDINGS"
    /// The environment variable that makes the whole run report-only: `WIRING_FINDINGS=report`.
    package static let modeVariable = "WIRING_FINDINGS"

    /// What the environment allows, for the whole run.
    package static var environment: WiringFindings {
        let variables = ProcessInfo.processInfo.environment
        let names = (variables[allowVariable] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let reportsOnly = ["report", "report-only", "warn"].contains(variables[modeVariable]?.lowercased() ?? "")
        return WiringFindings(
            allowed: Set(names), allowsAll: names.contains { $0.lowercased() == "all" }, reportsOnly: reportsOnly)
    }
}
