import Foundation
import WiringTestHelpers
import WiringXCTest
import XCTest

/// Snapshots named after the running test, not the calling function: two Quick examples (here,
/// two test methods sharing one helper, as Quick's `spec()` is shared) write two files, and a
/// snapshot kept under the old name is found and reported with its new one.
final class SnapshotNamingXCTests: FailureCapturingTestCase {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WiringNaming-\(UUID())").path

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    /// What every example of a spec calls: `#function` is the same for all of them.
    private func spec(_ test: TestContainer) -> [CapturedFailure] {
        captureFailures {
            assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: directory, record: true)
        }
    }

    private func resolvedTest() throws -> TestContainer {
        let test = makeTestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        return test
    }

    func testFirstExampleWritesAFileOfItsOwn() throws {
        let failures = spec(try resolvedTest())
        XCTAssertEqual(failures.count, 1, "recording fails, saying so")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(directory)/testFirstExampleWritesAFileOfItsOwn.checkout.txt"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(directory)/spec.checkout.txt"))
    }

    func testSecondExampleWritesAnotherFile() throws {
        let failures = spec(try resolvedTest())
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(directory)/testSecondExampleWritesAnotherFile.checkout.txt"))
    }

    /// The test container `spec()` checks the trace of.
    private var checked: TestContainer?

    /// A shared helper, as Quick's `spec()` is: a snapshot kept before was named after it.
    private func spec() {
        guard let checked else { return XCTFail("no test container to check") }
        assertTraceSnapshot(checked.trace, named: "checkout", snapshotDirectory: directory)
    }

    func testASnapshotUnderItsOldNameIsReportedWithItsNewName() throws {
        let test = try resolvedTest()
        checked = test
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data((test.trace.render() + "\n").utf8).write(to: URL(fileURLWithPath: "\(directory)/spec.checkout.txt"))
        let failures = captureFailures { spec() }
        XCTAssertEqual(failures.count, 1)
        let message = failures.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix("the trace snapshot is kept under its old name, \(directory)/spec.checkout.txt"), message)
        XCTAssertTrue(
            message.contains(
                "it is now named after the running test: \(directory)/testASnapshotUnderItsOldNameIsReportedWithItsNewName.checkout.txt"),
            message)
        XCTAssertTrue(message.contains("fix: rename the file (`git mv`) to its new name"), message)
        // Renamed, it passes.
        try FileManager.default.moveItem(
            atPath: "\(directory)/spec.checkout.txt",
            toPath: "\(directory)/testASnapshotUnderItsOldNameIsReportedWithItsNewName.checkout.txt")
        XCTAssertEqual(captureFailures { spec() }.map(\.message), [])
    }
}
