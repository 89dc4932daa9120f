import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// A finding fails the test that made it, not the one that happened to make or first touch the
// test container, and not only at the end of the run while the test could still be failed.
// Checked from child runs: a failing test cannot be expected in place.

/// A test container kept in a `static let`, which Swift makes the first time a test touches it:
/// here in `aAllowsLiveOnly`, which allows `live-only`; `bSwallowsLiveOnly` allows nothing.
@Suite(.enabled(if: ChildProcess.requestedCase == "shared-container-allowance"))
struct SharedContainerAllowanceChildSuite {
    static let shared = TestContainer(base: makeFindingsApp())
    static let firstTestTouchedIt = Locked(false)

    @Test(.wiringFindings(.allow("live-only")))
    func aAllowsLiveOnly() {
        _ = try? Self.shared.resolve(PayDesk.self)
        Self.firstTestTouchedIt.withLock { $0 = true }
    }

    @Test func bSwallowsLiveOnly() async {
        for _ in 0..<500 where !Self.firstTestTouchedIt.withLock({ $0 }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        _ = try? Self.shared.resolve(PayDesk.self)
    }

    /// Allowed in the test that made a test container of its own, the finding is allowed when
    /// noticed off the test's task too: the allowance is the test's.
    @Test(.wiringFindings(.allow("live-only")))
    func cAllowsLiveOnlyNoticedInADetachedTask() async {
        let test = TestContainer(base: makeFindingsApp())
        await Task.detached { _ = try? test.resolve(PayDesk.self) }.value
    }
}

@Suite("Findings reach the test that made them", .enabled(if: ChildProcess.isSupported))
struct OffTheTestsPathFindingsTests {
    @Test(.timeLimit(.minutes(4)))
    func oneTestsAllowanceDoesNotSilenceAnotherTestOfASharedContainer() throws {
        let outcome = try ChildProcess.run(
            "shared-container-allowance",
            arguments: ["--testing-library", "swift-testing", "--filter", "SharedContainerAllowanceChildSuite"],
            timeout: 60)
        #expect(!outcome.timedOut, "\(outcome)")
        #expect(outcome.output.contains("Test aAllowsLiveOnly() passed"), "\(outcome)")
        #expect(outcome.output.contains("Test cAllowsLiveOnlyNoticedInADetachedTask() passed"), "\(outcome)")
        #expect(outcome.output.contains("✘ Test bSwallowsLiveOnly() failed"), "\(outcome)")
        #expect(outcome.output.contains("bSwallowsLiveOnly() recorded an issue"), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestAFindingOffTheMainThreadFailsTheTestWhileItRuns() throws {
        let outcome = try ChildProcess.run(
            "xctest-off-main-findings", entry: "WiringXCTestTests.OffTheMainThreadFindingsChildXCTests", timeout: 60)
        let output = outcome.output
        let test = "OffTheMainThreadFindingsChildXCTests"
        for name in ["InSyncTearDown", "InAsyncTearDown", "OnAnotherQueueWhileWaiting"] {
            #expect(output.contains("Test Case '\(test).testSwallowsLiveOnly\(name)' failed"), "\(name)\n\(output)")
            #expect(output.contains("\(test).testSwallowsLiveOnly\(name) : live-only: LiveGateway"), "\(name)\n\(output)")
        }
        #expect(output.contains("Executed 3 tests, with 3 failures"), "\(output)")
        #expect(!output.contains("no running test could be failed for"), "\(output)")
    }
}
