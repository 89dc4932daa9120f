import Foundation
import Testing
import WiringAssertions
import WiringSwiftTesting

// What the snapshot tests share: checking a trace or a manifest as the test calling the check
// would, with the environment given, in a directory of the test's own.

/// What a snapshot check compares: a trace, kept as `checkout`, or a test container's
/// manifest, kept as `app`.
enum Snapshotted {
    case trace(ResolutionTrace)
    case wiring(TestContainer)
}

/// `assertTraceSnapshot` or `assertWiringSnapshot` with the environment given, as the test
/// calling it: named after that test, failing at its line. With `expectingFailure`, what it
/// records is expected.
func check(
    _ snapshotted: Snapshotted, in directory: TemporaryDirectory, record: Bool = false,
    environment: [String: String] = [:], expectingFailure: Bool = false,
    testName: String = #function, sourceLocation: SourceLocation = #_sourceLocation
) {
    let site = CallSite(sourceLocation, function: testName)
    let check = {
        switch snapshotted {
        case .trace(let trace):
            checkTraceSnapshot(
                trace, named: "checkout", snapshotDirectory: directory.path, record: record, at: site,
                environment: environment)
        case .wiring(let test):
            checkWiringSnapshot(
                test, named: "app", snapshotDirectory: directory.path, record: record, at: site,
                environment: environment)
        }
    }
    if expectingFailure { _ = expectFailures(check) } else { check() }
}

/// A directory of its own for one test, removed when the test is done with it.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "WiringSnapshots-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
