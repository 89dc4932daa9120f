import Wiring
import WiringTestSupport

/// Fails the running test at this line, listing every warning of `test.warnings`: a factory
/// that bypassed its resolver, a `popLayer()` with no layer pushed, a stale cached instance.
///
/// ```swift
/// let checkout = try test.resolve(Checkout.self)
/// assertNoWiringWarnings(test)
/// ```
/// - Parameters:
///   - test: The test container whose warnings to look at.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertNoWiringWarnings(
    _ test: TestContainer,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkNoWiringWarnings(test, at: site)
}

package func checkNoWiringWarnings(_ test: TestContainer, at site: CallSite) {
    let warnings = test.warnings
    guard !warnings.isEmpty else { return }
    let count = warnings.count == 1 ? "1 warning" : "\(warnings.count) warnings"
    var lines = ["the test container noticed \(count):"]
    let (shown, more) = BoundedText.listed(warnings)
    for warning in shown {
        // Each warning's own lines (its fix) stay indented under it.
        lines += warning.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
    }
    if let more { lines.append("  \(more) (`test.warnings` lists them all)") }
    recordFailure(lines.joined(separator: "\n"), at: site)
}
