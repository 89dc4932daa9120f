import Dispatch
import WiringAssertions
import WiringTestHelpers
import WiringXCTest
import XCTest

// XCTest test classes that run only in a child process, which the tests of WiringSwiftTestingTests
// start (see ChildRunTests there) to check what a whole XCTest run reports: wiring coverage
// written when it ends, and the isolation sentinel failing the tests concerned.

/// Tests that resolve through containers made by the same function, and through one they share.
final class CoverageChildXCTests: XCTestCase {
    private static let shared = TestContainer(base: makeCoverageApp())

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-coverage" else { throw XCTSkip("runs only in a child process") }
    }

    func testCart() throws {
        _ = try makeTestContainer(base: makeCoverageApp()).resolve(Cart.self)
    }

    func testCheckout() throws {
        _ = try makeTestContainer(base: makeCoverageApp()).resolve(Checkout.self)
    }

    func testSharedNetwork() throws {
        _ = try Self.shared.resolve((any Network).self)
    }
}

/// Tests that leave a layer pushed, keep their container for the next test, or resolve on
/// another queue from the shared container: each failure is the isolation sentinel's.
final class SentinelChildXCTests: XCTestCase {
    private static let shared = TestContainer(base: makeCoverageApp())
    private static let kept = Locked<TestContainer?>(nil)

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-sentinel" else { throw XCTSkip("runs only in a child process") }
    }

    func test1LeavesALayerPushed() throws {
        _ = makeTestContainer(base: makeCoverageApp())
        Self.shared.pushLayer("offline")
    }

    func test2ResolvesThroughTheLayerLeftPushed() throws {
        _ = try Self.shared.resolve(Cart.self)
    }

    func test3KeepsItsContainer() throws {
        Self.kept.withLock { $0 = makeTestContainer(base: makeCoverageApp()) }
    }

    func test4ResolvesTheKeptContainer() throws {
        _ = try Self.kept.withLock { $0 }?.resolve(Cart.self)
    }

    func test5FallsBackToTheSharedContainerOnAnotherQueue() throws {
        _ = makeTestContainer(base: makeCoverageApp())
        Container.shared = makeCoverageApp()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { _ = CartScreen().cart }
        group.wait()
    }
}

/// A test that pushes a layer on a shared test container and never pops it, then one that
/// resolves through it, with no helper of this package's used by either: the sentinel still
/// knows both, run alone as in a whole run.
final class LeakedLayerChildXCTests: XCTestCase {
    private static let shared = Locked<TestContainer?>(nil)

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-leaked-layer" else { throw XCTSkip("runs only in a child process") }
    }

    func test1LeavesALayerPushed() {
        let shared = TestContainer(base: makeCoverageApp())
        Self.shared.withLock { $0 = shared }
        shared.pushLayer("offline")
    }

    func test2ResolvesThroughTheLayerLeftPushed() throws {
        _ = try Self.shared.withLock { $0 }?.resolve(Cart.self)
    }
}

/// The first test of the process to use a helper keeps its container for the next: the
/// sentinel names it, though XCTest told no observer when it started.
final class FirstTestChildXCTests: XCTestCase {
    private static let kept = Locked<TestContainer?>(nil)

    override func setUpWithError() throws {
        guard ChildProcess.requestedCase == "xctest-first-test" else { throw XCTSkip("runs only in a child process") }
    }

    func test1KeepsItsContainer() throws {
        Self.kept.withLock { $0 = makeTestContainer(base: makeCoverageApp()) }
    }

    func test2ResolvesTheKeptContainer() throws {
        _ = try Self.kept.withLock { $0 }?.resolve(Cart.self)
    }
}
