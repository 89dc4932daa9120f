import Foundation
import WiringTestSupport

/// Compares a trace's rendering with a snapshot stored as text, failing the running test at
/// this line with a line diff when they differ.
///
/// ```swift
/// _ = try test.resolve(Checkout.self)
/// assertTraceSnapshot(test.trace, named: "checkout")    // __Snapshots__/CheckoutTests/checkout.checkout.txt
/// assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: dir)
/// ```
///
/// The snapshot is `<testName>.<name>.txt` in `__Snapshots__/<TestFile>/`, beside the test file,
/// or in `snapshotDirectory`. When it does not exist yet, the trace is written there and the
/// assertion fails saying so; run the test again to compare against it. With `record: true`,
/// or with the environment variable `WIRING_RECORD_SNAPSHOTS=1`, the snapshot is written again
/// and the assertion fails saying it was recorded. When the environment variable `CI` is set, a
/// missing snapshot is not written: it fails, as it should be committed with the test.
/// - Parameters:
///   - trace: The trace to compare, usually `test.trace`.
///   - name: Tells the snapshots of one test apart.
///   - snapshotDirectory: The folder to keep the snapshot in, instead of the one beside the test.
///   - record: Writes the snapshot again, and fails, so that recording is never left on by accident.
///   - testName: The test's name, part of the file name: by default the running test's (its
///     Swift Testing function, its XCTest method, a Quick example's test), else the calling function's.
///   - function: The calling function, the name when no running test is known; leave the default.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertTraceSnapshot(
    _ trace: ResolutionTrace,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    testName: String? = nil,
    function: String = #function,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column, function: function, testName: testName)
    checkTraceSnapshot(trace, named: name, snapshotDirectory: snapshotDirectory, record: record, at: site)
}

/// - Parameter environment: Where `WIRING_RECORD_SNAPSHOTS` and `CI` are read from.
package func checkTraceSnapshot(
    _ trace: ResolutionTrace, named name: String, snapshotDirectory: String?, record: Bool, at site: CallSite,
    environment: [String: String] = ProcessInfo.processInfo.environment
) {
    checkSnapshot(
        trace.render(), of: .trace, named: name, snapshotDirectory: snapshotDirectory, record: record, at: site,
        environment: environment)
}
