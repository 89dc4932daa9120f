import Wiring
import WiringTestSupport

/// Fails the running test at this line, listing every key a default from `test.fakes` stood in
/// for: the graph the test built is not the app's.
///
/// ```swift
/// test.fakes.register(Analytics.self) { NoopAnalytics() }
/// _ = try test.resolve(Checkout.self)
/// assertNoFakesUsed(test)
/// ```
/// - Parameters:
///   - test: The test container whose resolutions to look at.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertNoFakesUsed(
    _ test: TestContainer,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkNoFakesUsed(test, at: site)
}

package func checkNoFakesUsed(_ test: TestContainer, at site: CallSite) {
    let faked = test.fakedKeysSeenHere
    guard !faked.isEmpty else { return }
    let count = faked.count == 1 ? "1 service came" : "\(faked.count) services came"
    var lines = ["\(count) from fakes, as nothing registered them or their registration is live-only:"]
    lines += BoundedText.listedLines(faked.map { "\($0)" }).map { "  " + $0 }
    lines.append("  fix: register them in the app's container, or override them in the test if a double is intended")
    recordFailure(lines.joined(separator: "\n"), at: site)
}
