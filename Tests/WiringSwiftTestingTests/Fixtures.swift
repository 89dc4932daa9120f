import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// MARK: Capturing failures

/// A failure an assertion recorded: its message and where it was reported.
struct RecordedFailure: Sendable {
    let message: String
    let fileID: String
    let line: Int
}

/// Runs `body`, which must record exactly `count` issues, and returns what it recorded: the
/// issues are expected, so they do not fail the test; another number of them does, so that a
/// caller checking the first cannot miss a second.
func expectFailures(
    count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) -> [RecordedFailure] {
    let recorded = Locked<[RecordedFailure]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        recorded.withLock { $0.append(RecordedFailure(issue)) }
        return true
    }
    return checked(recorded.withLock { $0 }, count: count, sourceLocation: sourceLocation)
}

/// ``expectFailures(count:sourceLocation:_:)`` for an async `body`.
func expectFailures(
    count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async -> [RecordedFailure] {
    let recorded = Locked<[RecordedFailure]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        recorded.withLock { $0.append(RecordedFailure(issue)) }
        return true
    }
    return checked(recorded.withLock { $0 }, count: count, sourceLocation: sourceLocation)
}

extension RecordedFailure {
    fileprivate init(_ issue: Issue) {
        self.init(
            message: issue.comments.map(\.rawValue).joined(separator: "\n"),
            fileID: issue.sourceLocation?.fileID ?? "", line: issue.sourceLocation?.line ?? 0)
    }
}

/// `failures`, after failing the test if there are not `count` of them.
private func checked(_ failures: [RecordedFailure], count: Int, sourceLocation: SourceLocation) -> [RecordedFailure] {
    if failures.count != count {
        let messages = failures.map(\.message).joined(separator: "\n---\n")
        Issue.record(
            "expected \(count) recorded failure\(count == 1 ? "" : "s"), got \(failures.count):\n\(messages)",
            sourceLocation: sourceLocation)
    }
    return failures
}
