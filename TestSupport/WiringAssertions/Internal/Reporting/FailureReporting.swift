import Testing
import XCTest

/// Fails the test that is running, whichever framework runs it, at `site`.
///
/// Each framework ignores the other's failures: XCTest drops `Issue.record`, Swift Testing
/// drops `XCTFail`. `Test.current` tells them apart: Swift Testing sets it for the task running
/// a test (and the tasks it creates, but not a `Task.detached`); XCTest runs one test at a time.
package func recordFailure(_ message: String, at site: CallSite) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
        return
    }
    // Off a Swift Testing test's task (a `Task.detached`, a Dispatch queue) no test is current,
    // and XCTest may not run one either: unless it does, the failure goes to both, and the
    // framework running takes it (Swift Testing fails the run, under a test it cannot name).
    if XCTestRunObserver.shared.currentRun == nil {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    }
    if let file = site.staticFilePath {
        XCTFail(message, file: file, line: site.line)
    } else {
        // A Swift Testing `SourceLocation` forwarded into an XCTest run: XCTest only takes a
        // `StaticString` file, so the location goes into the message.
        XCTFail("\(site.filePath):\(site.line): \(message)")
    }
}
