import Foundation
import Testing
import WiringTestHelpers

// Each mistake Wiring notices fails the test that made it, in Swift Testing and in XCTest, with
// the finding's text at its location; a test that allows it, or fixes it, passes. Checked from
// child runs of FindingsChildSuite and FindingsChildXCTests: a failing test cannot be expected
// in place (XCTest on Linux has no expected-failure API).

@Suite("Findings fail the test that made them", .enabled(if: ChildProcess.isSupported))
struct FindingsRunTests {
    private static let suite = "WiringSwiftTestingTests.FindingsChildSuite"

    private func runSwiftTesting(environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            "swift-testing-findings",
            arguments: ["--testing-library", "swift-testing", "--filter", "FindingsChildSuite"], timeout: 60,
            environment: environment)
    }

    private func runXCTest(environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            "xctest-findings", entry: "WiringXCTestTests.FindingsChildXCTests", timeout: 60, environment: environment)
    }

    /// The issues Swift Testing printed for `test`: each location, and the first line of its comment.
    private func issues(of test: String, in output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.compactMap { index -> String? in
            let line = lines[index]
            guard line.contains("Test \(test)() recorded an issue at "), index + 1 < lines.count else { return nil }
            let location = line.components(separatedBy: "recorded an issue at ").last?
                .components(separatedBy: ": ").first ?? ""
            return location + " " + lines[index + 1].replacingOccurrences(of: "↳ ", with: "")
        }
    }

    @Test(.timeLimit(.minutes(4)))
    func inSwiftTestingEachMistakeFailsItsTestAtItsLocation() throws {
        let outcome = try runSwiftTesting()
        let output = outcome.output
        #expect(!outcome.succeeded, "\(outcome)")

        func expectIssue(_ test: String, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let found = issues(of: test, in: output)
            #expect(found.contains { $0.hasPrefix(prefix) }, "\(test): \(found)\n\(output)", sourceLocation: sourceLocation)
            #expect(output.contains("✘ Test \(test)() failed"), "\(output)", sourceLocation: sourceLocation)
        }
        // A refusal the code swallowed: at the test, naming the path and the fix.
        expectIssue(
            "liveOnlySwallowedFails",
            "FindingsChildSuite.swift:13:6 live-only: LiveGateway is registered live-only, and this TestContainer has no "
                + "override or fake for it: its factory would reach the real thing; the resolve threw, and the test fails "
                + "even where the code under test caught the error")
        #expect(output.contains("path: PayDesk -> LiveGateway"), "\(output)")
        #expect(output.contains("fix: override it in the test, as in `test.override(LiveGateway.self) { r in … }`"), "\(output)")
        expectIssue("liveOnlySwallowedInAHandMadeContainerFails", "FindingsChildSuite.swift:19:6 live-only: LiveGateway")
        // At the override, the pop and the push.
        expectIssue(
            "overrideOfUnregisteredFails",
            "FindingsChildSuite.swift:26:1 override-of-unregistered: the override of Logger at "
                + "WiringSwiftTestingTests/FindingsChildSuite.swift:26 replaces nothing")
        expectIssue("unbalancedPopFails", "FindingsChildSuite.swift:31:1 unbalanced-pop: popLayer() at")
        expectIssue(
            "unbalancedPushFails",
            "FindingsChildSuite.swift:36:1 unbalanced-push: layer \"offline\", pushed at "
                + "WiringSwiftTestingTests/FindingsChildSuite.swift:36 during \(Self.suite)/unbalancedPushFails()")
        expectIssue("unbalancedPushInAHandMadeContainerFails", "FindingsChildSuite.swift:41:1 unbalanced-push: layer \"offline\"")
        // At the registration that bypassed its resolver, on the test's task or from a detached one.
        expectIssue("resolverBypassFails", "Findings.swift:15:1 resolver-bypass: the factory of BypassingSync")
        expectIssue("resolverBypassInADetachedTaskFails", "Findings.swift:15:1 resolver-bypass: the factory of BypassingSync")
        // At the test, once its container is gone.
        expectIssue(
            "leakFails",
            "FindingsChildSuite.swift:56:6 leaked-instance: the test container of \(Self.suite)/leakFails() made 1 "
                + "instance still alive when the test ended")
        #expect(output.contains("SelfKeepingScreen #1 (a SelfKeepingScreen), made by SelfKeepingScreen"), "\(output)")

        for passing in [
            "liveOnlyAllowedPasses", "liveOnlyAllowedOutsideTheContainerTraitPasses", "liveOnlyOverriddenPasses",
            "overrideAllowedOnTheContainerPasses", "pushPoppedPasses", "reportOnlyPasses",
        ] {
            #expect(output.contains("Test \(passing)() passed"), "\(passing)\n\(output)")
        }
        // Report-only: a warning, with the finding's text.
        #expect(output.contains("Test reportOnlyPasses() recorded a warning at FindingsChildSuite.swift:104:1"), "\(output)")
        #expect(output.contains("Test reportOnlyPasses() passed after"), "\(output)")
        // Each was recorded in its test: none is left for the end of the run.
        #expect(!output.contains("no running test could be failed for"), "\(output)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inSwiftTestingTheEnvironmentAllowsFindingsForTheWholeRun() throws {
        let allowed = try runSwiftTesting(environment: ["WIRING_ALLOW_FINDINGS": "all"])
        #expect(allowed.succeeded, "\(allowed)")

        let some = try runSwiftTesting(environment: ["WIRING_ALLOW_FINDINGS": "live-only, unbalanced-push"])
        #expect(some.output.contains("Test liveOnlySwallowedFails() passed"), "\(some)")
        #expect(some.output.contains("Test unbalancedPushFails() passed"), "\(some)")
        #expect(some.output.contains("✘ Test unbalancedPopFails() failed"), "\(some)")

        let reported = try runSwiftTesting(environment: ["WIRING_FINDINGS": "report"])
        #expect(reported.succeeded, "\(reported)")
        #expect(reported.output.contains("unbalanced-pop: popLayer() at"), "\(reported)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestEachMistakeFailsItsTestAtItsLocation() throws {
        let outcome = try runXCTest()
        let output = outcome.output
        let test = "FindingsChildXCTests"

        #expect(output.contains("Executed 10 tests, with 7 failures"), "\(outcome)")
        func expectFailure(_ method: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(output.contains("error: \(test).\(method) : \(text)"), "\(method)\n\(output)", sourceLocation: sourceLocation)
            #expect(output.contains("Test Case '\(test).\(method)' failed"), "\(output)", sourceLocation: sourceLocation)
        }
        expectFailure(
            "testLiveOnlySwallowedFails",
            "live-only: LiveGateway is registered live-only, and this TestContainer has no override or fake for it")
        expectFailure("testLiveOnlySwallowedInAHandMadeContainerFails", "live-only: LiveGateway is registered live-only")
        #expect(output.contains(
            "WiringXCTestTests/FindingsChildXCTests.swift:26: error: \(test).testOverrideOfUnregisteredFails : "
                + "override-of-unregistered: the override of Logger"), "\(output)")
        expectFailure("testOverrideOfUnregisteredFails", "override-of-unregistered: the override of Logger")
        expectFailure("testUnbalancedPopFails", "unbalanced-pop: popLayer() at WiringXCTestTests/FindingsChildXCTests.swift:30")
        #expect(output.contains(
            "WiringXCTestTests/FindingsChildXCTests.swift:35: error: \(test).testUnbalancedPushInAHandMadeContainerFails : "
                + "unbalanced-push: layer \"offline\", pushed at WiringXCTestTests/FindingsChildXCTests.swift:35 during "
                + "\(test).testUnbalancedPushInAHandMadeContainerFails"), "\(output)")
        expectFailure("testResolverBypassFails", "resolver-bypass: the factory of BypassingSync")
        expectFailure("testResolverBypassOnAnotherQueueFails", "resolver-bypass: the factory of BypassingSync")
        for passing in ["testLiveOnlyAllowedPasses", "testPushPoppedPasses", "testPushPoppedByTheHelperPasses"] {
            #expect(output.contains("Test Case '\(test).\(passing)' passed"), "\(passing)\n\(output)")
        }
        #expect(!output.contains("no running test could be failed for"), "\(output)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestTheEnvironmentAllowsFindingsForTheWholeRun() throws {
        let allowed = try runXCTest(environment: ["WIRING_ALLOW_FINDINGS": "all"])
        #expect(allowed.output.contains("Executed 10 tests, with 0 failures"), "\(allowed)")

        let reported = try runXCTest(environment: ["WIRING_FINDINGS": "report"])
        #expect(reported.output.contains("Executed 10 tests, with 0 failures"), "\(reported)")
        #expect(reported.output.contains("warning: unbalanced-pop: popLayer() at"), "\(reported)")
    }
}
