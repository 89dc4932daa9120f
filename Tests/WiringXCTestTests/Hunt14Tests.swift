import Foundation
import WiringTestHelpers
import WiringXCTest
import XCTest

/// Hunt 14: SnapshotNamingXCTests again, with `async` test methods. An XCTest `async` test runs
/// off the main thread (swift-corelibs-xctest runs its body in a `Task` and waits on the main
/// thread; so does a non-isolated async test on Darwin), and snapshot naming looks for the
/// running XCTest test only on the main thread.
///
/// Snapshots.md and `assertTraceSnapshot`'s `testName:` doc promise the file is named "after the
/// running test (a Swift Testing test's function, an XCTest method, a Quick example), else the
/// calling function". In an async XCTest test the running test is known (XCTest runs one test at
/// a time; `XCTestRunObserver.currentTestCase` says which, on any thread), yet
/// `SnapshotName.testName(for:)` (TestSupport/WiringAssertions/Internal/Snapshots/TextSnapshot.swift)
/// asks it only `if Thread.isMainThread`, and otherwise names the file after the calling function.
///
/// What goes wrong today: the snapshot of `testFirstAsyncExampleWritesAFileOfItsOwn` is written
/// as `spec-_.checkout.txt`, not `testFirstAsyncExampleWritesAFileOfItsOwn.checkout.txt`; and a
/// second async test sharing the helper (a Quick `spec()`, any snapshot helper) fails with "the
/// snapshot …/spec-_.checkout.txt was checked in this run by
/// Hunt14AsyncSnapshotNamingXCTests.testFirstAsyncExampleWritesAFileOfItsOwn … fix: give each its
/// own name", though each test checks its own snapshot: the same helper called from synchronous
/// test methods gives each test its own file and passes (SnapshotNamingXCTests). (Without
/// `makeTestContainer`, before anything has identified the running test, the collision message
/// even names the helper `spec(_:)` as the other test.)
/// Confirmed: both fail 3 runs of 3 (run as `WiringXCTestTests.Hunt14AsyncSnapshotNamingXCTests`).
final class Hunt14AsyncSnapshotNamingXCTests: FailureCapturingTestCase {
    /// Shared by both tests, as one `__Snapshots__/<File>/` folder is.
    private static let directory =
        FileManager.default.temporaryDirectory.appendingPathComponent("Hunt14AsyncNaming-\(UUID())").path

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
