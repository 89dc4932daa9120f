import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport
import XCTest

// What happens when a test process ends, checked in child processes that end: the coverage
// report written where WIRING_COVERAGE says (processes of one run adding up), and the isolation
// sentinel's warnings printed on standard error.

/// The cases a child process runs, then exits; each returns what the parent checks.
private let runEndCases: [String: @Sendable () throws -> String] = [
    "coverage-at-exit": {
        // Three tests, each with its own container made by the same function; one container
        // still alive when the process ends.
        ChildKeeper.keep(try ThreeTests.make()[2])
        return "resolved"
    },
    "sentinel-at-exit": {
        // A test with a container of its own runs; code no test is known for falls back to the
        // shared container, through a real @Injected. (This child runs inside an XCTest test,
        // which the helper modules would know: no test is known here but the one declared.)
        let owner = TestRun(name: "AppTests.CheckoutSuite/checkout()")
        actAsIfNoTestRuns()
        let test = TestContainer(base: makeCoverageApp())
        test.declareMade(for: owner, by: "`.testContainer`")
        Container.shared = makeCoverageApp()
        _ = CartScreen().cart
        _ = CartScreen().cart
        // The test ends; code still running resolves through its container.
        owner.end()
        _ = try test.resolve(Cart.self)
        return "resolved"
    },
    "unbalanced-push-at-exit": {
        // A layer pushed and never popped on a test container that is then freed, by code no
        // test is known for (as in "sentinel-at-exit").
        actAsIfNoTestRuns()
        do {
            let test = TestContainer(base: makeCoverageApp())
            test.pushLayer("offline", file: "AppTests/OfflineTests.swift", line: 12)
        }
        return "resolved"
    },
    "strict-at-exit": {
        // A layer left pushed, in a run that fails on warnings at its end (WIRING_STRICT=1).
        actAsIfNoTestRuns()
        do {
            let test = TestContainer(base: makeCoverageApp())
            test.pushLayer("offline", file: "AppTests/OfflineTests.swift", line: 12)
        }
        return "resolved"
    },
]

/// Makes the test support see no running test: these children run inside an XCTest test, which
/// the helper modules (found when the first test container is made) would otherwise fail.
private func actAsIfNoTestRuns() {
    _ = TestContainer(base: Container())
    RunningTests.install(identify: { RunningTests.bound }, record: { _, _ in false })
}

/// Keeps a test container alive until the process ends.
private enum ChildKeeper {
    private static let kept = LockedState<[TestContainer]>([])

    static func keep(_ test: TestContainer) {
        kept.withLock { $0.append(test) }
    }
}

/// The entry a child process runs: the case named in its environment, then exit.
final class RunEndChildEntry: XCTestCase {
    func testChildCase() throws {
        guard ChildProcess.requestedCase != nil else { throw XCTSkip("runs only in a child process") }
        ChildProcess.runRequestedCase(from: runEndCases)
    }
}

@Suite("The end of a test process", .enabled(if: ChildProcess.isSupported))
struct RunEndTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WiringRunEnd-\(UUID())")

    @discardableResult
    private func run(_ name: String, environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        let outcome = try ChildProcess.run(
            name, entry: "WiringTestSupportTests.RunEndChildEntry/testChildCase", timeout: 60, environment: environment)
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "resolved", "\(outcome)")
        return outcome
    }

    @Test(.timeLimit(.minutes(4)))
    func theReportIsWrittenWhenTheProcessEnds() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wiring-coverage.txt").path

        try run("coverage-at-exit", environment: ["WIRING_COVERAGE": path, "WIRING_COVERAGE_RUN": "\(UUID())"])

        #expect(try String(contentsOfFile: path, encoding: .utf8) == ThreeTests.report + "\n")
        let json = directory.appendingPathComponent("wiring-coverage.json").path
        #expect(try String(contentsOfFile: json, encoding: .utf8) == ThreeTests.json + "\n")
    }

    @Test(.timeLimit(.minutes(4)))
    func theProcessesOfOneRunAddUp() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wiring-coverage.txt").path
        let run = "\(UUID())"

        // Two children of this process: the same parent makes them one run.
        try self.run("coverage-at-exit", environment: ["WIRING_COVERAGE": path])
        try self.run("coverage-at-exit", environment: ["WIRING_COVERAGE": path])
        let twice = try String(contentsOfFile: path, encoding: .utf8)
        #expect(twice.hasPrefix("""
            Wiring coverage: 4 of 5 registrations resolved by 6 tests (80%)

            Registrations, with how many tests resolved each:
              6  Network [.container] at App/Setup.swift:12
              4  Cart [.graph] at App/Setup.swift:14
              2  Payments [.graph] at App/Setup.swift:15
              2  Checkout [.graph] at App/Setup.swift:16
              0  Logger [.container] at App/Setup.swift:20
            """), "\(twice)")

        // Another run starts afresh.
        try self.run("coverage-at-exit", environment: ["WIRING_COVERAGE": path, "WIRING_COVERAGE_RUN": run])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == ThreeTests.report + "\n")
    }

    @Test(.timeLimit(.minutes(4)))
    func withoutWiringCoverageNothingIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try run("coverage-at-exit")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test(.timeLimit(.minutes(4)))
    func aLayerLeftPushedWhenItsTestContainerIsFreedIsAWarningAtTheEnd() throws {
        let outcome = try run("unbalanced-push-at-exit")

        #expect(outcome.sentinelWarnings.hasSuffix("""
            warning: unbalanced-push: layer "offline", pushed at AppTests/OfflineTests.swift:12, was never popped: \
            the test that pushed it ended, or its TestContainer was freed, with the layer still pushed
              fix: pop every layer where it is pushed (`defer { test.popLayer() }`), or use \
            `test.withOverrides({ layer in … }) { … }`, which removes its layer itself; in XCTest, `pushLayer(_:on:)` \
            pops it at teardown
            """), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inStrictModeWarningsAtTheEndFailTheRun() throws {
        let outcome = try ChildProcess.run(
            "strict-at-exit", entry: "WiringTestSupportTests.RunEndChildEntry/testChildCase", timeout: 60,
            environment: ["WIRING_STRICT": "1"])

        #expect(!outcome.succeeded, "\(outcome)")
        #expect(!outcome.wasSignalled && outcome.status == 1, "\(outcome)")
        #expect(outcome.output.contains("warning: unbalanced-push: layer \"offline\""), "\(outcome)")
        #expect(outcome.output.contains("error: WIRING_STRICT=1, so these warnings fail the run"), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func warningsNoTestCouldBeFailedForArePrintedWhenTheProcessEnds() throws {
        let outcome = try run("sentinel-at-exit")

        #expect(outcome.sentinelWarnings == """
            Wiring: 2 findings no running test could be failed for
            warning: shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver in code no test is known for (a Task.detached, a callback on another queue) while AppTests.CheckoutSuite/checkout() ran with a test container of its own: that code used the app's real dependencies
              fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand that code the resolver it should use
            warning: ended-test-container: the test container `.testContainer` made for AppTests.CheckoutSuite/checkout() was resolved from after AppTests.CheckoutSuite/checkout() ended, by code still running after it (an unawaited task, a callback, a stored reference)
              fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
            """, "\(outcome)")
    }
}
