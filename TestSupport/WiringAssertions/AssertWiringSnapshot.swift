import Foundation
import WiringTestSupport

/// Compares the wiring manifest of a test container (`test.wiringManifest()`) with a snapshot
/// stored as text, failing the running test at this line with a line diff when they differ: a
/// change to the app's wiring then shows as a readable diff in review.
///
/// ```swift
/// let test = TestContainer(base: makeAppContainer())
/// assertWiringSnapshot(test, named: "app")    // __Snapshots__/WiringTests/wiring.app.wiring.txt
/// assertWiringSnapshot(test, named: "app", snapshotDirectory: dir)
/// ```
///
/// The snapshot is kept as trace snapshots are, with the same record modes: the file
/// `<testName>.<name>.wiring.txt` in `__Snapshots__/<TestFile>/`, beside the test file, or in
/// `snapshotDirectory`. When it does not exist yet, the manifest is written there and the
/// assertion fails saying so; run the test again to compare against it. With `record: true`,
/// or with the environment variable `WIRING_RECORD_SNAPSHOTS=1`, the snapshot is written again
/// and the assertion fails saying it was recorded. When the environment variable `CI` is set, a
/// missing snapshot is not written: it fails, as it should be committed with the test.
/// - Parameters:
///   - test: The test container whose wiring to keep: its base, its own registrations and its overrides.
///   - name: Tells the snapshots of one test apart.
///   - snapshotDirectory: The folder to keep the snapshot in, instead of the one beside the test.
///   - record: Writes the snapshot again, and fails, so that recording is never left on by accident.
///   - samples: Sample runtime arguments, for registrations that take some; one without is
///     listed as unchecked, with only the dependencies its autowired initializer declares.
///   - testName: The test's name, part of the file name: by default the running test's (its
///     Swift Testing function, its XCTest method, a Quick example's test), else the calling function's.
///   - function: The calling function, the name when no running test is known; leave the default.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertWiringSnapshot(
    _ test: TestContainer,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column, function: function, testName: testName)
    checkWiringSnapshot(
        test, named: name, snapshotDirectory: snapshotDirectory, record: record, samples: samples, at: site)
}

/// Compares the wiring manifest of an app's container with a text snapshot, as the test
/// container form does: the container is wrapped in a `TestContainer` and not modified.
///
/// ```swift
/// assertWiringSnapshot(makeAppContainer(), named: "app")
/// ```
/// - Parameters:
///   - container: The container whose wiring to keep, with its parents.
///   - name: Tells the snapshots of one test apart.
///   - snapshotDirectory: The folder to keep the snapshot in, instead of the one beside the test.
///   - record: Writes the snapshot again, and fails, so that recording is never left on by accident.
///   - samples: Sample runtime arguments, for registrations that take some.
///   - testName: The test's name, part of the file name: by default the running test's (its
///     Swift Testing function, its XCTest method, a Quick example's test), else the calling function's.
///   - function: The calling function, the name when no running test is known; leave the default.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertWiringSnapshot(
    _ container: Container,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column, function: function, testName: testName)
    checkWiringSnapshot(
        TestContainer(base: container), named: name, snapshotDirectory: snapshotDirectory, record: record,
        samples: samples, at: site)
}

/// Compares the wiring manifest of a test container with its text snapshot, as
/// `assertWiringSnapshot(_:named:)` does, building registrations whose factory must be awaited (`test.wiringManifestAsync()`):
/// for apps with async or main-actor factories, whose needs it lists like any other's.
///
/// ```swift
/// await assertWiringSnapshotAsync(test, named: "app")
/// ```
/// - Parameters: As for `assertWiringSnapshot`.
@MainActor
public func assertWiringSnapshotAsync(
    _ test: TestContainer,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column, function: function, testName: testName)
    await checkWiringSnapshotAsync(
        test, named: name, snapshotDirectory: snapshotDirectory, record: record, samples: samples, at: site)
}

/// `checkWiringSnapshot`, with the manifest of `wiringManifestAsync`.
@MainActor
package func checkWiringSnapshotAsync(
    _ test: TestContainer, named name: String, snapshotDirectory: String?, record: Bool,
    samples: (inout VerificationSamples) -> Void, at site: CallSite,
    environment: [String: String] = ProcessInfo.processInfo.environment
) async {
    checkSnapshot(
        await test.wiringManifestAsync(samples: samples).render(), of: .wiring, named: name,
        snapshotDirectory: snapshotDirectory, record: record, at: site, environment: environment)
}

/// - Parameter environment: Where `WIRING_RECORD_SNAPSHOTS` and `CI` are read from.
package func checkWiringSnapshot(
    _ test: TestContainer, named name: String, snapshotDirectory: String?, record: Bool,
    samples: (inout VerificationSamples) -> Void = { _ in }, at site: CallSite,
    environment: [String: String] = ProcessInfo.processInfo.environment
) {
    checkSnapshot(
        test.wiringManifest(samples: samples).render(), of: .wiring, named: name,
        snapshotDirectory: snapshotDirectory, record: record, at: site, environment: environment)
}
