import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

/// An app that registers nothing the child's assertion asks for.
private func makeDetachedApp() -> Container {
    Container()
}

/// Run only in a child process: a Swift Testing test whose Wiring assertion fails in a detached
/// task (the same happens on a Dispatch queue), beside Swift Testing's own `#expect` failing there.
@Suite(.enabled(if: ChildProcess.requestedCase == "detached-assertion"))
struct DetachedAssertionChildSuite {
    @Test(.testContainer { makeDetachedApp() })
    func assertsInADetachedTask() async throws {
        let test = try #require(TestContainer.current)
        let work = Task<Void, Never>.detached {
            _ = assertResolves(Int.self, in: test)   // nothing registers Int: this assertion fails
        }
        await work.value
    }
}

@Suite("Assertions off the test's task", .enabled(if: ChildProcess.isSupported))
struct AssertionsOffTheTestsTaskTests {
    /// DESIGN.md §3: "An assertion from either module fails the test that is running, whichever
    /// framework runs it". In a `Task.detached` (or on a Dispatch queue) no Swift Testing test is
    /// current: the failure is recorded for Swift Testing too, which fails the run under a test it
    /// cannot name, as its own `#expect` does there.
    ///
    /// Before the fix: it went to `XCTFail` only, which a Swift Testing run drops: the test and
    /// the run passed, the message appeared nowhere (hunt 14; 3 runs of 3).
    @Test(.timeLimit(.minutes(4)))
    func aWiringAssertionThatFailsInADetachedTaskFailsTheRun() throws {
        let outcome = try ChildProcess.run(
            "detached-assertion",
            arguments: ["--testing-library", "swift-testing", "--filter", "DetachedAssertionChildSuite"],
            timeout: 60)
        #expect(outcome.output.contains("Int could not be resolved"), "\(outcome)")
        #expect(!outcome.succeeded, "\(outcome)")
    }
}
