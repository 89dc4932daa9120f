import Foundation
import WiringTestHelpers
import WiringXCTest
import XCTest

/// SnapshotNamingXCTests again, with `async` test methods, which XCTest runs off the main
/// thread (swift-corelibs-xctest runs the body in a task and waits on the main thread; so does a
/// non-isolated async test on Darwin). The running test is known there too (XCTest runs one at a
/// time), so each test's snapshot is named after it.
///
/// Before the fix: the running XCTest test was looked for only on the main thread, so the file
/// was named after the calling helper (`spec-_.checkout.txt`) and the second test failed with a
/// false "checked in this run by …testFirstAsyncExample…, give each its own name" (hunt 14;
/// both failed 3 runs of 3).
final class AsyncSnapshotNamingXCTests: FailureCapturingTestCase {
    /// Shared by both tests, as one `__Snapshots__/<File>/` folder is.
    private static let directory =
        FileManager.default.temporaryDirectory.appendingPathComponent("AsyncSnapshotNaming-\(UUID())").path

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    /// What every example of a spec calls: `#function` is the same for all of them.
    private func spec(_ test: TestContainer) -> [CapturedFailure] {
        captureFailures {
            assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: Self.directory, record: true)
        }
    }

    private func resolvedTest() throws -> TestContainer {
        let test = makeTestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        return test
    }

    func testFirstAsyncExampleWritesAFileOfItsOwn() async throws {
        let failures = spec(try resolvedTest())
        XCTAssertEqual(failures.map(\.message).count, 1, "recording fails, saying so")
        XCTAssertTrue(
            failures.first?.message.hasPrefix("recorded the trace snapshot") == true, "\(failures.map(\.message))")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: "\(Self.directory)/testFirstAsyncExampleWritesAFileOfItsOwn.checkout.txt"),
            "\(failures.map(\.message))")
    }

    func testSecondAsyncExampleWritesAnotherFile() async throws {
        let failures = spec(try resolvedTest())
        XCTAssertEqual(failures.map(\.message).count, 1)
        XCTAssertTrue(
            failures.first?.message.hasPrefix("recorded the trace snapshot") == true, "\(failures.map(\.message))")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: "\(Self.directory)/testSecondAsyncExampleWritesAnotherFile.checkout.txt"),
            "\(failures.map(\.message))")
    }
}
