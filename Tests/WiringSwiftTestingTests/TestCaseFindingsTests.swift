import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Each case of a parameterized test, and each repetition of a test, fails for what its own test
// containers notice, as Swift Testing reports each case on its own. Cases made with their own
// test containers (no `.testContainer` trait) once shared one run: a finding failed only the
// first case that made it, a finding noticed off one case's task failed another case, and a
// layer one case left pushed went unreported when another case resolved through it. Checked from
// child runs of TestCaseChildSuite: a failing test cannot be expected in place.

private final class CaseDep: Sendable {}
private final class CaseRepo: Sendable {
    let dep: CaseDep
    init(dep: CaseDep) { self.dep = dep }
}
private final class CaseUnregistered: Sendable {}

private func makeCaseApp() -> Container {
    let base = Container()
    base.register(CaseDep.self) { _ in CaseDep() }.scope(.container)
    base.register(CaseRepo.self) { r in try CaseRepo(dep: r.resolve(CaseDep.self)) }.scope(.container)
    return base
}

/// Waits, at most five seconds, until `flag` is set.
private func waitFor(_ flag: Locked<Bool>) async {
    for _ in 0..<500 where !flag.withLock({ $0 }) {
        try? await Task.sleep(for: .milliseconds(10))
    }
}

@Suite(.enabled(if: ChildProcess.requestedCase == "test-case-findings"))
struct TestCaseChildSuite {
    @Test(arguments: 0..<6)
    func everyCaseMakesAFinding(index: Int) async {
        let test = TestContainer(base: makeCaseApp())
        test.override(CaseUnregistered.self) { _ in CaseUnregistered() }
        await Task.yield()
    }

    @Test(.testContainer { makeCaseApp() }, arguments: 0..<6)
    func everyCaseUnderTheTraitMakesAFinding(index: Int) async throws {
        try #require(TestContainer.current).override(CaseUnregistered.self) { _ in CaseUnregistered() }
        await Task.yield()
    }

    /// Run with `--repetitions 3`.
    @Test func everyRepetitionMakesAFinding() {
        let test = TestContainer(base: makeCaseApp())
        test.override(CaseUnregistered.self) { _ in CaseUnregistered() }
    }

    static let findingMadeByCaseOne = Locked(false)
    static let caseZeroReleasedItsContainer = Locked(false)

    /// Case 1 makes a finding off its task, which waits for case 1 to release its container;
    /// meanwhile case 0 releases a container of its own.
    @Test(arguments: [0, 1])
    func aFindingOffTheTaskOfCaseOne(index: Int) async {
        if index == 1 {
            var test: TestContainer? = TestContainer(base: makeCaseApp())
            await Task.detached { [test] in _ = test?.override(CaseUnregistered.self) { _ in CaseUnregistered() } }.value
            Self.findingMadeByCaseOne.withLock { $0 = true }
            await waitFor(Self.caseZeroReleasedItsContainer)
            test = nil
            return
        }
        await waitFor(Self.findingMadeByCaseOne)
        do {
            let test = TestContainer(base: makeCaseApp())
            _ = try? test.resolve(CaseRepo.self)
        }
        Self.caseZeroReleasedItsContainer.withLock { $0 = true }
    }

    static let shared = TestContainer(base: makeCaseApp())
    static let layerPushed = Locked(false)
    static let resolvedThroughIt = Locked(false)

    /// Case 0 pushes a layer on a shared test container and keeps it pushed while case 1
    /// resolves through it.
    @Test(arguments: [0, 1])
    func aLayerOfAnotherCase(index: Int) async {
        if index == 0 {
            Self.shared.pushLayer("offline")
            Self.layerPushed.withLock { $0 = true }
            await waitFor(Self.resolvedThroughIt)
            Self.shared.popLayer()
        } else {
            await waitFor(Self.layerPushed)
            _ = try? Self.shared.resolve(CaseRepo.self)
            Self.resolvedThroughIt.withLock { $0 = true }
        }
    }
}

@Suite("Each test case fails for its own findings", .enabled(if: ChildProcess.isSupported))
struct TestCaseFindingsTests {
    /// The child run's output, without colours.
    private func run(_ filter: String, _ more: [String] = []) throws -> String {
        let outcome = try ChildProcess.run(
            "test-case-findings", arguments: ["--testing-library", "swift-testing", "--filter", filter] + more,
            timeout: 60)
        #expect(!outcome.timedOut, "\(outcome)")
        return outcome.output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// The summary line Swift Testing prints for `test` when it fails.
    private func failureLine(of test: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.contains("Test \(test) with ") && $0.contains(" failed ") }
    }

    @Test(.timeLimit(.minutes(4)))
    func everyCaseFailsForTheFindingItMade() throws {
        let output = try run("TestCaseChildSuite/everyCase")
        let handMade = failureLine(of: "everyCaseMakesAFinding(index:)", in: output)
        #expect(handMade?.hasSuffix("with 6 issues.") == true, "\(handMade ?? "none")\n\(output)")
        let underTrait = failureLine(of: "everyCaseUnderTheTraitMakesAFinding(index:)", in: output)
        #expect(underTrait?.hasSuffix("with 6 issues.") == true, "\(underTrait ?? "none")\n\(output)")
        for index in 0..<6 {
            #expect(output.contains("everyCaseMakesAFinding(index:) recorded an issue with 1 argument index → \(index)"))
        }
    }

    @Test(.timeLimit(.minutes(4)))
    func aFindingNoticedOffACasesTaskFailsThatCase() throws {
        let output = try run("TestCaseChildSuite/aFindingOffTheTaskOfCaseOne")
        #expect(output.contains("aFindingOffTheTaskOfCaseOne(index:) recorded an issue with 1 argument index → 1"), "\(output)")
        #expect(!output.contains("aFindingOffTheTaskOfCaseOne(index:) recorded an issue with 1 argument index → 0"), "\(output)")
    }

    @Test(.timeLimit(.minutes(4)))
    func aLayerOneCaseLeftPushedFailsTheCaseResolvingThroughIt() throws {
        let output = try run("TestCaseChildSuite/aLayerOfAnotherCase")
        #expect(output.contains("aLayerOfAnotherCase(index:) recorded an issue with 1 argument index → 1"), "\(output)")
        #expect(output.contains("leaked-layer"), "\(output)")
        #expect(!output.contains("aLayerOfAnotherCase(index:) recorded an issue with 1 argument index → 0"), "\(output)")
    }

    @Test(.timeLimit(.minutes(4)))
    func everyRepetitionFailsForTheFindingItMade() throws {
        let output = try run("TestCaseChildSuite/everyRepetitionMakesAFinding", ["--repetitions", "3"])
        let failed = output.split(separator: "\n").filter { $0.contains("Test everyRepetitionMakesAFinding() failed") }
        #expect(failed.count == 3, "\(output)")
    }
}
