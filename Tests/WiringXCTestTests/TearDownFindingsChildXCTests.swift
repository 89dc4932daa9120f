import WiringTestHelpers
import WiringXCTest
import XCTest

/// A layer left pushed in a class `tearDown()`, which XCTest runs after the class's last test,
/// where no test runs: the `unbalanced-push` finding must be listed at the end of the run,
/// whether the class is the run's last or another class's tests follow. Run only in a child
/// process (see ClassTearDownFindingsTests in WiringSwiftTestingTests).
final class TearDownFindingsChildXCTests: XCTestCase {
    /// The child cases that run this class.
    static let cases: Set<String> = [
        "teardown-findings-last-class", "teardown-findings-after-helpers", "teardown-findings-then-another-class",
        "teardown-findings-kept-container",
    ]

    /// A test container the process keeps to its end, made when first used.
    static let kept = TestContainer(base: makeFindingsApp())

    override class func tearDown() {
        if ChildProcess.requestedCase == "teardown-findings-kept-container" {
            // Never freed: its layer left pushed is found only when the class tearDown() is over.
            kept.pushLayer("offline", file: "AppTests/OfflineTests.swift", line: 12)
        } else if let requested = ChildProcess.requestedCase, cases.contains(requested) {
            // A test container for the class, freed as the class ends with its layer still pushed.
            let test = TestContainer(base: makeFindingsApp())
            test.pushLayer("offline", file: "AppTests/OfflineTests.swift", line: 12)
        }
        super.tearDown()
    }

    override func setUpWithError() throws {
        guard let requested = ChildProcess.requestedCase, Self.cases.contains(requested) else {
            throw XCTSkip("runs only in a child process")
        }
    }

    func testRunsBeforeTheClassTearDown() {
        // Wiring's helpers known before the class tearDown(), as when the class's tests use them.
        if ChildProcess.requestedCase == "teardown-findings-after-helpers" { _ = TestContainer(base: makeFindingsApp()) }
    }
}

/// Runs after ``TearDownFindingsChildXCTests`` in the same child: its test must not fail for
/// what that class's `tearDown()` left.
final class TearDownFindingsNextChildXCTests: XCTestCase {
    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "teardown-findings-then-another-class" else {
            throw XCTSkip("runs only in a child process")
        }
    }

    func testRunsAfterAnotherClassTearDown() {}
}
