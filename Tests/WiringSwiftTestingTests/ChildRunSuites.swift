import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Swift Testing suites that run only in a child process, which ChildRunTests starts to check
// what a whole run reports: wiring coverage written when it ends, and the isolation sentinel's
// warnings for code no test could be failed for.

/// Tests in parallel: each test case with its own container made by the same function, and
/// tests sharing one container.
@Suite(.enabled(if: ChildProcess.requestedCase == "swift-testing-coverage"))
struct CoverageChildSuite {
    static let shared = TestContainer(base: makeCoverageApp())

    @Test(.testContainer { makeCoverageApp() }, arguments: 0..<8)
    func checkout(index: Int) async throws {
        await Task.yield()
        _ = try #require(TestContainer.current).resolve(Checkout.self)
    }

    @Test(.testContainer { makeCoverageApp() }, arguments: 0..<8)
    func cart(index: Int) async throws {
        await Task.yield()
        _ = try #require(TestContainer.current).resolve(Cart.self)
    }

    @Test func sharedNetwork() {
        assertResolves((any Network).self, in: Self.shared)
    }

    @Test func sharedCart() {
        assertResolves(Cart.self, in: Self.shared)
    }

    @Test(
        .testContainer { makeCoverageApp() },
        .override(Payments.self, file: "AppTests/PaymentsTests.swift", line: 7) { _ in Payments(network: FakeNetwork()) })
    func overridesWhatItNeverResolves() {}
}

/// One test at a time, so that each warning names the only test running: code of no known test
/// falls back to the shared container; work a test left running resolves after it ended.
@Suite(.enabled(if: ChildProcess.requestedCase == "swift-testing-sentinel"), .serialized)
struct SentinelChildSuite {
    /// The work `leavesWorkRunning()` did not await, and what lets it go on.
    private static let leftRunning = Locked<(work: Task<Void, Never>, resume: AsyncStream<Void>.Continuation)?>(nil)

    @Test(.testContainer { makeCoverageApp() })
    func fallsBackInADetachedTask() async {
        // A test with a container of its own that assigns the shared one fails (`shared-assigned`).
        withKnownIssue { Container.shared = makeCoverageApp() }
        await Task.detached { _ = CartScreen().cart }.value
    }

    @Test(.testContainer { makeCoverageApp() })
    func leavesWorkRunning() throws {
        let test = try #require(TestContainer.current)
        let (resumed, resume) = AsyncStream<Void>.makeStream()
        let work = Task {
            for await _ in resumed { break }
            _ = try? test.resolve(Cart.self)
        }
        Self.leftRunning.withLock { $0 = (work, resume) }
    }

    @Test func thenTheWorkResolves() async throws {
        let (work, resume) = try #require(Self.leftRunning.withLock { $0 })
        resume.yield()
        await work.value
    }
}

/// A test that pushes a layer on a shared test container and never pops it, then one that
/// resolves through it, with no helper of this package's used by either: the sentinel still
/// knows both, run alone (`--filter`) as in a whole run.
@Suite(.enabled(if: ChildProcess.requestedCase == "swift-testing-leaked-layer"), .serialized)
struct LeakedLayerChildSuite {
    private static let shared = TestContainer(base: makeCoverageApp())

    @Test func leavesALayerPushed() {
        Self.shared.pushLayer("offline")
    }

    @Test func resolvesThroughTheLayerLeftPushed() throws {
        _ = try Self.shared.resolve(Cart.self)
    }
}

/// A test with a test container of its own, made without any helper of this package's, whose
/// task falls back to the shared container: the fallback is that test's, not a list of suspects.
@Suite(.enabled(if: ChildProcess.requestedCase == "swift-testing-fallback"))
struct FallbackChildSuite {
    @Test func fallsBackInATaskItCreated() async {
        Container.shared = makeCoverageApp()                   // as the app's launch code would, before the test's container
        let test = TestContainer(base: makeCoverageApp())
        await Task { _ = CartScreen().cart }.value             // not bound to `test`: the app's real dependencies
        withExtendedLifetime(test) {}
    }

    @Test func runsAlongsideWithAContainerOfItsOwn() async throws {
        let test = TestContainer(base: makeCoverageApp())
        _ = try test.resolve(Cart.self)
    }
}
