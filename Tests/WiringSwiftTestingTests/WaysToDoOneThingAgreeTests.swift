import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Ways the docs present as equivalent behave alike; each test failed before its fix (found by a
// seventh hunt). Also checked, and alike: `.wiringFindings` listed before `.override` allows its finding; a suite's `.override` without a nested `.testContainer` fails a test once; `.fakes` under a shared container answers and is in `fakedKeys`; strict `.fakes` under `.testContainer` is reported by verifyWiring. Not a library bug: a trait's #line inside an `@Test`/`@Suite` attribute is the declaration's line, as is Swift Testing's own ConditionTrait.sourceLocation.

// Trait scopes are composed by hand, in the order Swift Testing
// composes them (the first trait listed is the outermost scope), as TraitTests does; the child
// suites at the end show the same with real `@Test` traits.

/// A service the app never registers: overriding it is an `override-of-unregistered` finding.
final class OneWayUnregistered: Sendable {}

/// The texts of the issues `body` records; none of them fails the test running it.
private func oneWayIssues(_ body: () async throws -> Void) async throws -> [String] {
    let issues = Locked<[String]>([])
    try await withKnownIssue(isIntermittent: true) {
        try await body()
    } matching: { issue in
        issues.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
        return true
    }
    return issues.withLock { $0 }
}

@Suite struct WaysToDoOneThingAgreeTests {
    /// Promise (LayersAndParallelTests.md, "A test may declare its own `.testContainer` inside a
    /// suite that has one: the test's container builds on the suite's, so the suite's overrides and
    /// fakes stay"; WhatFailsATest.md: "A test fails once for each finding a test container
    /// noticed"): one `.override` of the suite is one double, one finding.
    /// Before the fix: a suite's `.override(Unregistered.self)` fails a test that declares its own
    /// `.testContainer` twice (two identical `override-of-unregistered` issues at the trait's line);
    /// a test of the same suite without its own container fails once. 3 runs of 3 (also with real
    /// traits: `nestedContainerChildRun`).
    /// Cause: TestContainerTrait.runWithContainer (TestContainerTrait.swift) applies the suite's
    /// `appliedDoubles` again to the test's new container; the suite's container, made only to be
    /// built on, already noted the finding for its own TestRun of the same test case, and the
    /// dedup in FindingRouter.report/TestRun.noteReported is per WarningLog, so each container's
    /// log reports it.
    @Test func aSuitesOverrideInANestedTestContainerIsReportedOnce() async throws {
        let suite: TestContainerTrait = .testContainer { makeAppContainer() }
        let override: TestDoubleTrait = .override(OneWayUnregistered.self) { _ in OneWayUnregistered() }
        let own: TestContainerTrait = .testContainer { makeAppContainer() }
        // @Suite(.testContainer { … }, .override(OneWayUnregistered.self) { … }) … @Test(.testContainer { … })
        let issues = try await oneWayIssues {
            try await suite.provideScope(for: Test.current!, testCase: Test.Case.current) {
                try await override.provideScope(for: Test.current!, testCase: Test.Case.current) {
                    try await own.provideScope(for: Test.current!, testCase: Test.Case.current) {}
                }
            }
        }
        #expect(issues.count == 1, "\(issues.count) issues:\n\(issues.joined(separator: "\n"))")
    }

    /// Promise (TestDoubleTrait.swift: "Under a container someone else bound to
    /// `TestContainer.current`, which other tests may share, overrides and fakes go into a layer
    /// only this test's task sees"; TestDoubles.md: with `fakes.isStrict = true` "the wiring report
    /// lists each faked key as a problem"): `.fakes { fakes in …; fakes.isStrict = true }` does the
    /// same under the test's own container and under a shared one.
    /// Before the fix: under `.testContainer`, `verifyWiring()` reports `faked: Analytics …`; under a shared
    /// container the same trait's fake answers (and is in `fakedKeys`) but `verifyWiring()` reports
    /// nothing: the strictness is silently dropped. 3 runs of 3.
    /// Cause: the `.fakes` trait's `toLayer` (TestDoubleTrait.fakes) hands the closure the layer's
    /// own `Fakes` (OverrideLayer.layerFakes); VerificationSandbox.init reads only
    /// `test.fakes.isStrict`, the test container's, so `isStrict` set on a layer's fakes is read
    /// by nothing.
    @Test func aStrictFakesTraitUnderASharedContainerReportsItsFakes() async throws {
        let fakes: TestDoubleTrait = .fakes { fakes in
            fakes.register(Analytics.self) { NoopAnalytics() }
            fakes.isStrict = true
        }
        let makeApp: @Sendable () -> Container = {
            let container = Container()
            container.register(OneWayUnregistered.self) { resolver in
                _ = try resolver.resolve(Analytics.self)
                return OneWayUnregistered()
            }
            return container
        }
        let owned: TestContainerTrait = .testContainer(makeApp)
        let ownedProblems = Locked<[String]>([])
        try await owned.provideScope(for: Test.current!, testCase: Test.Case.current) {
            try await fakes.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let problems = try #require(TestContainer.current).verifyWiring().problems.map { "\($0)" }
                ownedProblems.withLock { $0 = problems }
            }
        }
        let shared = TestContainer(base: makeApp())
        let sharedProblems = Locked<[String]>([])
        try await TestContainer.$current.withValue(shared) {
            try await fakes.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let problems = shared.verifyWiring().problems.map { "\($0)" }
                sharedProblems.withLock { $0 = problems }
            }
        }
        #expect(ownedProblems.withLock { $0.count } == 1)
        #expect(
            sharedProblems.withLock { $0 } == ownedProblems.withLock { $0 },
            "own container: \(ownedProblems.withLock { $0 }); shared: \(sharedProblems.withLock { $0 })")
    }
    /// Promise (WiringFindings.swift, `.wiringFindings` trait doc; WhatFailsATest.md): the trait
    /// "allows findings in this test, or every test of this suite". Its own example puts it right
    /// after `.testContainer`, and nothing says it must come before the doubles.
    /// Before the fix: `@Test(.testContainer { … }, .override(Unregistered.self) { … },
    /// .wiringFindings(.allow("override-of-unregistered")))` fails with the finding; the same
    /// traits with `.wiringFindings` listed before `.override` pass. 3 runs of 3, every time
    /// (the two tests of the child suite).
    /// A test's traits are known to it only in the real test (`Test.current.traits`), so this is
    /// checked in a child run, not with scopes composed by hand.
    /// Cause: the finding is judged when it is noticed. TestDoubleTrait.provideScope
    /// (TestDoubleTrait.swift) applies the override (OverrideLayer.noteIfNothingAnswers ->
    /// WarningLog.note -> FindingRouter.report) before the inner WiringFindingsTrait.provideScope
    /// has set `RunningTests.bound?.findingPolicy` or `WiringFindings.bound`; FindingRouter.report
    /// records it at once (TestIdentification.record), so the allowance arrives too late. The same
    /// holds for a suite's `.override`/`.testClock()` and a test's `.wiringFindings`.
    @Test(.enabled(if: ChildProcess.isSupported), .timeLimit(.minutes(4)))
    func traitOrderChildRun() throws {
        let outcome = try ChildProcess.run(
            "trait-order",
            arguments: ["--testing-library", "swift-testing", "--filter", "TraitOrderChildSuite"], timeout: 60)
        #expect(!outcome.timedOut, "\(outcome)")
        #expect(outcome.output.contains("Test allowanceListedBeforeTheOverride() passed"), "\(outcome)")
        #expect(outcome.output.contains("Test allowanceListedAfterTheOverride() passed"), "\(outcome)")
    }

    /// `aSuitesOverrideInANestedTestContainerIsReportedOnce` with real traits, in a child run:
    /// both tests fail (as they should), each with one issue.
    @Test(.enabled(if: ChildProcess.isSupported), .timeLimit(.minutes(4)))
    func nestedContainerChildRun() throws {
        let outcome = try ChildProcess.run(
            "nested-container", arguments: ["--testing-library", "swift-testing", "--filter", "NestedContainerChildSuite"],
            timeout: 60)
        #expect(!outcome.timedOut, "\(outcome)")
        let ends = outcome.output.split(separator: "\n").filter { $0.contains("failed after") }
        let own = ends.first { $0.contains("ownContainerToo()") }.map(String.init) ?? ""
        let suites = ends.first { $0.contains("suitesContainerOnly()") }.map(String.init) ?? ""
        #expect(suites.hasSuffix("with 1 issue."), "\(outcome)")
        #expect(own.hasSuffix("with 1 issue."), "\(outcome)")
    }
}

// MARK: Child suites, run only by the tests above

@Suite(.enabled(if: ChildProcess.requestedCase == "trait-order"))
struct TraitOrderChildSuite {
    @Test(
        .testContainer { makeAppContainer() }, .wiringFindings(.allow("override-of-unregistered")),
        .override(OneWayUnregistered.self) { _ in OneWayUnregistered() })
    func allowanceListedBeforeTheOverride() {}

    @Test(
        .testContainer { makeAppContainer() }, .override(OneWayUnregistered.self) { _ in OneWayUnregistered() },
        .wiringFindings(.allow("override-of-unregistered")))
    func allowanceListedAfterTheOverride() {}
}

@Suite(
    .enabled(if: ChildProcess.requestedCase == "nested-container"), .testContainer { makeAppContainer() },
    .override(OneWayUnregistered.self) { _ in OneWayUnregistered() })
struct NestedContainerChildSuite {
    @Test func suitesContainerOnly() {}

    @Test(.testContainer { makeAppContainer() })
    func ownContainerToo() {}
}
