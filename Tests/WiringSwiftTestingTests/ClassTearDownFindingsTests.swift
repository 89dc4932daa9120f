// A finding noticed in an XCTest class tearDown(), where XCTest runs no test and drops a
// failure, is listed at the end of the run, whether the class is the run's last or another
// class's tests follow; the first two tests failed before the fix.
import Testing
import WiringTestHelpers

@Suite("A finding in an XCTest class tearDown()", .enabled(if: ChildProcess.isSupported))
struct ClassTearDownFindingsTests {
    static let entry = "WiringXCTestTests.TearDownFindingsChildXCTests"
    static let leftPushed = #"warning: unbalanced-push: layer "offline", pushed at AppTests/OfflineTests.swift:12"#

    /// Promise: a finding a test container notices fails the running test, or, where no test can
    /// be failed, is listed at the end of the run ("Wiring: N findings no running test could be
    /// failed for"); it is never lost (WhatFailsATest.md; `FindingRouter`).
    ///
    /// Before the fix: in a child process, `TearDownFindingsChildXCTests`' class `tearDown()`, the
    /// first use of Wiring's helpers, after the run's last test, leaves a layer pushed on a test
    /// container it frees. The child exits 0 and prints nothing after "Executed 1 test, with 0
    /// failures": `sentinelWarnings` is "", no `unbalanced-push` line at all. 3 runs of 3.
    ///
    /// Cause: the observer, added on the main thread outside Swift Testing, takes the class
    /// `tearDown()` for an unknown XCTest test; the finding goes to it, `TestIdentification.record`
    /// calls `XCTFail`, which XCTest drops with no test running, and keeps it as unconfirmed. Only
    /// the next test's start (`testCaseWillStart`) sent unconfirmed findings to the summary, and
    /// after the run's last class none starts.
    @Test(.timeLimit(.minutes(4)))
    func aFindingInTheLastClassTearDownOfTheRunIsListedAtTheEnd() throws {
        let outcome = try run("teardown-findings-last-class", entries: [Self.entry])

        #expect(outcome.succeeded, "a class tearDown() fails no test, and XCTest did not crash\n\(outcome)")
        #expect(outcome.output.contains("Executed 1 test, with 0 failures"), "\(outcome)")
        #expect(outcome.sentinelWarnings == """
            Wiring: 1 finding no running test could be failed for
            warning: unbalanced-push: layer "offline", pushed at AppTests/OfflineTests.swift:12 during the XCTest test \
            (or class setUp() or tearDown()) running when Wiring's helpers were first used, was never popped: the test \
            that pushed it ended, or its TestContainer was freed, with the layer still pushed
              fix: pop every layer where it is pushed (`defer { test.popLayer() }`), or use \
            `test.withOverrides({ layer in … }) { … }`, which removes its layer itself; in XCTest, `pushLayer(_:on:)` \
            pops it at teardown
              (noticed in an XCTest class setUp() or tearDown(), where no test runs, so it failed no test)
            """, "\(outcome)")
    }

    /// The same, on a test container the process keeps: the layer is found left pushed only
    /// once the class `tearDown()` is over, when the suite finishes.
    ///
    /// Before the fix: the child exits 0 with "Executed 1 test, with 0 failures" and nothing
    /// after it, `sentinelWarnings` "". Cause: the unknown test the class `tearDown()` was taken
    /// for never ended, so the check waiting for its end (`LayerStack.push`, `atScopeEnd`) never ran.
    @Test(.timeLimit(.minutes(4)))
    func aLayerLeftPushedInTheLastClassTearDownOnAKeptContainerIsListedAtTheEnd() throws {
        let outcome = try run("teardown-findings-kept-container", entries: [Self.entry])

        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.output.contains("Executed 1 test, with 0 failures"), "\(outcome)")
        #expect(outcome.sentinelWarnings.contains(Self.leftPushed), "not in the end-of-run summary\n\(outcome)")
        #expect(outcome.sentinelWarnings.contains("(noticed for an XCTest class setUp() or tearDown() after it ended"), "\(outcome)")
    }

    /// The same, with Wiring's helpers used in the class's test first: no test runs in the
    /// class `tearDown()`, and the finding goes straight to the summary (it did before the fix too).
    @Test(.timeLimit(.minutes(4)))
    func aFindingInTheLastClassTearDownAfterTheHelpersWereUsedIsListedAtTheEnd() throws {
        let outcome = try run("teardown-findings-after-helpers", entries: [Self.entry])

        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.output.contains("Executed 1 test, with 0 failures"), "\(outcome)")
        #expect(outcome.sentinelWarnings.contains(Self.leftPushed), "not in the end-of-run summary\n\(outcome)")
    }

    /// A class `tearDown()` followed by another class's test: the finding must not fail that
    /// test, which did not make it, and goes to the summary (it did before the fix too, when the
    /// next test started).
    @Test(.timeLimit(.minutes(4)))
    func aFindingInAClassTearDownFollowedByAnotherClassFailsNoneOfItsTestsAndIsListedAtTheEnd() throws {
        let outcome = try run(
            "teardown-findings-then-another-class",
            entries: [Self.entry, "WiringXCTestTests.TearDownFindingsNextChildXCTests"])

        #expect(outcome.succeeded, "\(outcome)")
        let tearDownClassEnded = outcome.output.range(of: "Test Suite 'TearDownFindingsChildXCTests' passed")
        let nextTestStarted = outcome.output.range(
            of: "Test Case 'TearDownFindingsNextChildXCTests.testRunsAfterAnotherClassTearDown' started")
        #expect(tearDownClassEnded != nil && nextTestStarted != nil, "\(outcome)")
        if let tearDownClassEnded, let nextTestStarted {
            #expect(tearDownClassEnded.upperBound <= nextTestStarted.lowerBound, "the other class ran after\n\(outcome)")
        }
        #expect(outcome.output.contains("Executed 2 tests, with 0 failures"), "\(outcome)")
        #expect(outcome.sentinelWarnings.contains(Self.leftPushed), "not in the end-of-run summary\n\(outcome)")
    }

    /// Runs the XCTest `entries` in a child, as case `name`; warnings at the end do not fail it.
    private func run(_ name: String, entries: [String]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            name, arguments: [entries.joined(separator: ",")], timeout: 60, environment: ["WIRING_STRICT": "0"])
    }
}
