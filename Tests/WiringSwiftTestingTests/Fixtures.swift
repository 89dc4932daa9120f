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

/// Runs `body`, which must record at least one issue, and returns what it recorded: the issues
/// are expected, so they do not fail the test.
func expectFailures(_ body: () -> Void) -> [RecordedFailure] {
    let recorded = Locked<[RecordedFailure]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        let failure = RecordedFailure(
            message: issue.comments.map(\.rawValue).joined(separator: "\n"),
            fileID: issue.sourceLocation?.fileID ?? "", line: issue.sourceLocation?.line ?? 0)
        recorded.withLock { $0.append(failure) }
        return true
    }
    return recorded.withLock { $0 }
}

/// ``expectFailures(_:)`` for an async `body`.
func expectFailures(_ body: () async -> Void) async -> [RecordedFailure] {
    let recorded = Locked<[RecordedFailure]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        let failure = RecordedFailure(
            message: issue.comments.map(\.rawValue).joined(separator: "\n"),
            fileID: issue.sourceLocation?.fileID ?? "", line: issue.sourceLocation?.line ?? 0)
        recorded.withLock { $0.append(failure) }
        return true
    }
    return recorded.withLock { $0 }
}
