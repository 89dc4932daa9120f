import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Helpers that told a test something false or let a mistake pass, each a test that failed before
// its fix (found by a sixth hunt). Also checked, and true: a `.fakes` trait's fake used by the test that declares it; a non-parameterized test checking its own snapshot again in each of its repetitions; a snapshot recorded once, then matched.

private final class TruthLeaf {}
private final class TruthNeeds {
    let leaf: TruthLeaf
    init(leaf: TruthLeaf) { self.leaf = leaf }
}

@Suite struct TraitsAndAssertionsTellTheTruthTests {
    /// Promise (TestDoubleTrait's documentation): "Under a container someone else bound to
    /// `TestContainer.current`, which other tests may share, overrides go into a layer only this
    /// test's task sees"; `.override`, the clocks and the generators do. What fails a test:
    /// "A test toolkit that sees a mistake and lets the test pass is worse than one that does not look."
    ///
    /// Before the fix: a test with `.fakes { fakes.register(TruthLeaf.self) { TruthLeaf() } }` under a shared test
    /// container registers the fake in the shared container itself, for good: once the test
    /// ended, another test of that container resolving `TruthNeeds` (whose `TruthLeaf` nothing
    /// registers) gets the fake instead of a `not registered` error: a fake silently used by a
    /// test that never declared one. (As read, a test running in parallel sees it as soon as
    /// the trait registers it.) Every run (3 of 3).
    ///
    /// Cause: `TestDoubleTrait.fakes(file:line:_:)` builds its `TestDoubles` with
    /// `toLayer: nil`, and `TestDoubles.apply(to:of:)` (WiringSwiftTesting/Internal/TestDoubles.swift)
    /// then calls `toContainer`, registering into `container.fakes`, which belongs to the
    /// container and is never undone when `TestDoubleTrait.provideScope` ends.
    @Test func aFakesTraitUnderASharedContainerStaysWithTheTest() async throws {
        let container = Container()
        container.register(TruthNeeds.self) { r in try TruthNeeds(leaf: r.resolve()) }
        let shared = TestContainer(base: container)
        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(TruthLeaf.self) { TruthLeaf() } }
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                _ = try shared.resolve(TruthNeeds.self)        // this test's fake: fine
            }
        }

        // Another test of the shared container, which declares no fake.
        #expect(throws: ResolutionError.self) { try shared.resolve(TruthNeeds.self) }
    }

    /// The same, raced: tasks under the trait and tasks without it resolve through one shared
    /// test container at once, a fast and a slow factory, over many rounds. Only the tasks that
    /// declared the fake get it; the others get `not registered`, while the trait's tests run.
    @Test(.timeLimit(.minutes(4)), arguments: FactorySpeed.allCases)
    func aFakesTraitUnderASharedContainerIsSeenOnlyByItsOwnTasks(speed: FactorySpeed) async throws {
        let container = Container()
        container.register(TruthNeeds.self) { r in
            speed.work()
            return try TruthNeeds(leaf: r.resolve())
        }
        let shared = TestContainer(base: container)
        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(TruthLeaf.self) { TruthLeaf() } }
        let (test, testCase) = (Test.current!, Test.Case.current)
        let wrong = Locked<[String]>([])
        for round in 0..<speed.rounds / 5 {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        if task.isMultiple(of: 2) {
                            try? await TestContainer.$current.withValue(shared) {
                                try await trait.provideScope(for: test, testCase: testCase) {
                                    if (try? shared.resolve(TruthNeeds.self)) == nil {
                                        wrong.withLock { $0.append("round \(round): the fake's own task got no fake") }
                                    }
                                }
                            }
                        } else if (try? shared.resolve(TruthNeeds.self)) != nil {
                            wrong.withLock { $0.append("round \(round): a task without the trait got the fake") }
                        }
                    }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 }.prefix(5))")
    }

    /// Promise (Snapshots.md): "two cases of a parameterized test, or two tests, checking one
    /// file in a run fail asking each for a name of its own"; WhatFailsATest.md: "The
    /// repetitions of a test (`--repetitions`) count as one test".
    ///
    /// Before the fix: a parameterized test whose cases each name their snapshot after their argument
    /// (`named: label`), run with `--repetitions 2` once its snapshots are recorded: the first
    /// repetition passes, the second fails every case with "the snapshot …/eachCaseNamesItsSnapshot-label.a.txt
    /// was checked in this run by another case of this parameterized test: two checks of one
    /// file would write it twice … fix: give each its own name", which each case already has.
    /// The same test without arguments passes its repetitions. Every run (3 of 3).
    ///
    /// Cause: `SnapshotName.claim(_:by:isParameterized:)` (WiringAssertions/Internal/
    /// Snapshots/TextSnapshot.swift) remembers which test checked each path by the test's name
    /// only (`TestIdentification.name(of:)`, no case), and takes any second claim of a path by
    /// a parameterized test (`earlier != test || isParameterized`) for another case's, so the
    /// same case checking its own file again in its next repetition fails.
    @Test(.enabled(if: ChildProcess.isSupported), .timeLimit(.minutes(4)))
    func aRepeatedParameterizedTestChecksItsOwnSnapshotsAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hunt6-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var outputs: [String] = []
        // The first run records the snapshots (and fails saying so); the second compares.
        // Recorded on purpose the first time, even where `CI` is set (where nothing is recorded
        // unasked).
        for record in ["1", ""] {
            let outcome = try ChildProcess.run(
                "repeated-snapshots",
                arguments: ["--testing-library", "swift-testing", "--filter", "RepeatedSnapshotChildSuite", "--repetitions", "2"],
                timeout: 60, environment: ["WIRING_TEST_SNAPSHOTS": directory, "WIRING_RECORD_SNAPSHOTS": record])
            #expect(!outcome.timedOut, "\(outcome)")
            outputs.append(outcome.output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression))
        }
        let compared = outputs[1]
        #expect(!compared.contains("by another case of this parameterized test"), "\(compared)")
        #expect(!compared.contains("failed"), "\(compared)")
    }

    /// Promise (VerifyingAndTheManifest.md, "Assertions"): `assertScope` "checks what the scope
    /// does: … `.container` shares across resolves and with child containers, … a custom scope
    /// shares until `resetScope`"; its failure "says what it saw".
    ///
    /// Before the fix: `assertScope(Session.self, is: .container, in: test)` passes for `Session`,
    /// registered in `Scope("session")`, which `test.resetScope(.session)` drops (a `.container`
    /// instance would survive it: the app's log-out would not renew what the test asserted is
    /// app-wide). `assertScope(Session.self, is: .session)` passes as well: both answers pass.
    /// Every run (3 of 3).
    ///
    /// Cause: `ScopeBehaviour.observe(_:in:resetting:)` (WiringAssertions/Internal/Scopes/
    /// ScopeBehaviour.swift) resets a scope only when the expected one is custom
    /// (`ScopeBehaviour.resetting(_:)`), so for `.container` it never tries the registration's
    /// own scope; `summary` even says ".container or a custom scope". The registration's own
    /// scope (`RegistrationInfo`, or a reset of it) is what would tell them apart.
    @Test func assertScopeContainerFailsForAServiceTheSessionResetDrops() throws {
        let test = TestContainer(base: makeScopedContainer())
        let before = try test.resolve(Session.self)
        test.resetScope(.session)
        #expect(try test.resolve(Session.self) !== before)          // not kept like a .container one

        // Fails here ("expected 1 recorded failure, got 0"): the assertion passed.
        let failures = expectFailures { assertScope(Session.self, is: .container, in: test) }
        #expect(
            failures.first?.message.hasPrefix(
                "expected the container to keep Session across resetScope(Scope(\"session\")) (.container), "
                    + "but the reset dropped it: it is kept in Scope(\"session\")") == true,
            "\(failures.map(\.message))")
    }
}

/// Runs only in a child process started by `aRepeatedParameterizedTestChecksItsOwnSnapshotsAgain`.
@Suite(.enabled(if: ChildProcess.requestedCase == "repeated-snapshots"))
struct RepeatedSnapshotChildSuite {
    /// Each case keeps a snapshot named after its argument.
    @Test(arguments: ["a", "b"])
    func eachCaseNamesItsSnapshot(label: String) throws {
        let directory = try #require(ProcessInfo.processInfo.environment["WIRING_TEST_SNAPSHOTS"])
        let container = Container()
        container.register(TruthLeaf.self) { _ in TruthLeaf() }
        let test = TestContainer(base: container)
        _ = try test.resolve(TruthLeaf.self)
        assertTraceSnapshot(test.trace, named: label, snapshotDirectory: directory)
    }
}
