import Wiring
import WiringTestSupport

/// Fails the running test at this line, listing every object the test container made that is
/// still alive once the test container let go of what it kept (`test.leakedInstances()`), each with its key and the
/// resolution path that made it: a view model kept by a closure that captures it, a cycle of
/// strong references.
///
/// ```swift
/// var screen: CheckoutScreen? = try test.resolve(CheckoutScreen.self)
/// screen = nil                                   // the test's own references are gone
/// assertNoLeakedInstances(test)
/// ```
///
/// Call it once the test's own references are gone: at the end of a `withOverrides` body, or in
/// `tearDown`.
/// - Parameters:
///   - test: The test container whose instances to look at.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertNoLeakedInstances(
    _ test: TestContainer,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    checkNoLeakedInstances(test, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

package func checkNoLeakedInstances(_ test: TestContainer, at site: CallSite) {
    guard test.isTrackingLeaks else {
        recordFailure(
            """
            the test container does not track leaks (off by default in release builds), so none can be found
              fix: set `test.isTrackingLeaks = true` before resolving
            """, at: site)
        return
    }
    let leaked = test.leakedInstances()
    guard !leaked.isEmpty else { return }
    let count = leaked.count == 1 ? "1 instance" : "\(leaked.count) instances"
    let (shown, more) = BoundedText.listed(leaked)
    let lines = ["the test container made \(count) still alive though it let go of what it kept:"]
        + shown.map { "  \($0)" } + (more.map { ["  \($0) (`test.leakedInstances()` lists them all)"] } ?? [])
        + ["  fix: find what still holds each (a closure capturing it strongly, a cycle of strong references) and break it with `[weak self]` or a weak property"]
    recordFailure(lines.joined(separator: "\n"), at: site)
}
