import Foundation
import Testing
import WiringAssertions

/// Compares text with a snapshot file committed under `Snapshots/` beside this file.
///
/// A missing snapshot is written and the test fails, so a new one is looked at before it is
/// committed; `WIRING_RECORD_SNAPSHOTS=1 swift test --filter WiringDemoTests` rewrites them all
/// after an intended change.
enum Snapshot {
    /// The environment variable that makes every comparison write its snapshot instead.
    static let recordVariable = "WIRING_RECORD_SNAPSHOTS"

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)

    /// Expects `text` to equal the snapshot `name`, reporting a line diff when it does not.
    static func expect(_ text: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name)
        let isRecording = ProcessInfo.processInfo.environment[recordVariable] == "1"
        guard !isRecording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("could not write snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
                return
            }
            if !isRecording {
                Issue.record(
                    "no snapshot \(name) yet: recorded it at \(file.path); check it and commit it",
                    sourceLocation: sourceLocation)
            }
            return
        }
        // The file ends with a newline, as text files do; the output does not.
        let expectedText = expected.hasSuffix("\n") ? String(expected.dropLast()) : expected
        if text != expectedText {
            Issue.record(
                """
                output differs from snapshot \(name) (- snapshot, + now); if the change is intended, \
                re-record with \(recordVariable)=1:
                \(LineDiff(old: lines(expectedText), new: lines(text)).unified())
                """,
                sourceLocation: sourceLocation)
        }
    }
}

private func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}
