import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Findings recorded on the test's own task fail it at once: checked in place with
// `withKnownIssue`, which expects the issue. (Whole runs, and XCTest: FindingsRunTests.)

@Suite struct FindingsTests {
    /// Whether `issue` is the finding `identifier`, with its fix.
    private func isFinding(_ identifier: String) -> @Sendable (Issue) -> Bool {
        { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.hasPrefix("\(identifier): ") && text.contains("fix: ")
        }
    }

    @Test func aSwallowedLiveOnlyRefusalFailsTheTestAtOnce() {
        let test = TestContainer(base: makeFindingsApp())
        withKnownIssue {
            #expect((try? test.resolve(PayDesk.self)) == nil)
        } matching: { isFinding("live-only")($0) }
    }

    @Test func aSecondRefusalOfTheSamePathFailsTheTestOnce() {
        let test = TestContainer(base: makeFindingsApp())
        withKnownIssue {
            _ = try? test.resolve(PayDesk.self)
            _ = try? test.resolve(PayDesk.self)
        } matching: { isFinding("live-only")($0) }
        #expect(test.warnings.count == 1)
    }

    @Test func anUnbalancedPopFailsTheTestAtThePop() {
        let test = TestContainer(base: makeFindingsApp())
        let line = #line + 2
        withKnownIssue {
            test.popLayer()
        } matching: { issue in
            isFinding("unbalanced-pop")(issue) && issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test func aFindingAllowedOnTheContainerFailsNothingAndStaysInTheWarnings() {
        let test = TestContainer(base: makeFindingsApp())
        test.wiringFindings(.allow("unbalanced-pop", "live-only"))
        test.popLayer()
        _ = try? test.resolve(PayDesk.self)
        #expect(test.warnings.map(\.identifier) == ["unbalanced-pop", "live-only"])
    }

    @Test(.wiringFindings(.allow("unbalanced-pop")))
    func aFindingAllowedByTheTraitFailsNothing() {
        let test = TestContainer(base: makeFindingsApp())
        test.popLayer()
        #expect(test.warnings.map(\.identifier) == ["unbalanced-pop"])
    }

    @Test(.wiringFindings(.allow("unbalanced-pop")))
    func anAllowanceIsNarrow() {
        let test = TestContainer(base: makeFindingsApp())
        withKnownIssue {
            _ = try? test.resolve(PayDesk.self)
        } matching: { isFinding("live-only")($0) }
    }

    /// Wiring's own probes report a live-only registration themselves: no finding, no warning.
    @Test func probesDoNotFailTheTest() throws {
        let test = TestContainer(base: makeFindingsApp())
        let report = test.verifyWiring()
        #expect(report.liveOnly.contains(ServiceKey(LiveGateway.self)))
        _ = test.wiringManifest()
        _ = test.explain(PayDesk.self)
        withKnownIssue {
            assertScope(PayDesk.self, is: .graph, in: test)     // cannot build it: the assertion's own failure
        } matching: { issue in !isFinding("live-only")(issue) }
        #expect(test.warnings.isEmpty)
    }

    @Test func findingsAboutTheAppsWiringFailNoTest() {
        let base = makeFindingsApp()
        base.register(PayDesk.self) { _ in PayDesk(gateway: LiveGateway()) }   // a duplicate: the app's, not the test's
        let test = TestContainer(base: base)
        #expect(test.warnings.map(\.identifier) == ["duplicate-registration"])
        #expect(test.warnings.allSatisfy { !$0.isAboutTheRunningTest })
    }

    @Test func theEnvironmentNamesFindingsOrAll() {
        #expect(WiringFindings.failTests.description == ".failTests")
        #expect(WiringFindings.allow("b", "a").merging(.reportOnly).description == ".allow(\"a\", \"b\") + .reportOnly")
        #expect(WiringFindings.allowAll.allows("anything"))
        #expect(!WiringFindings.allow("live-only").allows("unbalanced-pop"))
    }
}
