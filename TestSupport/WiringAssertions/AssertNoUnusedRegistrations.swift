import Wiring
import WiringTestSupport

/// Fails the running test at this line, listing each registration and override that nothing
/// resolved through the test container: an override nobody used is a test that does not test
/// what it says.
///
/// ```swift
/// let checkout = try test.resolve(Checkout.self)
/// assertNoUnusedRegistrations(test, ignoring: [ServiceKey(Logger.self)])
/// ```
/// - Parameters:
///   - test: The test container whose resolutions to look at.
///   - ignoring: Keys not to report, such as services this test has no reason to resolve.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertNoUnusedRegistrations(
    _ test: TestContainer,
    ignoring: [ServiceKey] = [],
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkNoUnusedRegistrations(test, ignoring: ignoring, at: site)
}

package func checkNoUnusedRegistrations(_ test: TestContainer, ignoring: [ServiceKey], at site: CallSite) {
    let ignored = Set(ignoring)
    let unused = test.unusedRegistrations().filter { !ignored.contains($0.key) }
    guard !unused.isEmpty else { return }
    let count = unused.count == 1 ? "1 registration was" : "\(unused.count) registrations were"
    var lines = ["\(count) never resolved through the test container:"]
    let (shown, more) = BoundedText.listed(unused)
    lines += shown.map { "  \($0)" }
    if let more { lines.append("  \(more) (`test.unusedRegistrations()` lists them all)") }
    lines.append(
        "  fix: resolve what the test is about, remove registrations and overrides it does not need, "
            + "or pass their keys in `ignoring:`")
    recordFailure(lines.joined(separator: "\n"), at: site)
}
