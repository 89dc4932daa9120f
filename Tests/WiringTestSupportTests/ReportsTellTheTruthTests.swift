import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// What the manifest, the coverage and the unused registrations say about live-only
// registrations and replaced modules: a live-only factory is never run by design, a refused
// resolve is no resolve, and what hides a replaced module's registrations is no override.

private struct RNetworkModule: Module {
    func register(in container: Container) {
        container.register((any Network).self, file: "App/Setup.swift", line: 30) { _ in LiveNetwork() }
    }
}

private struct RFakeNetworkModule: Module {
    func register(in container: Container) {}
}

@Suite struct ReportsTellTheTruthTests {
    @Test func theManifestMarksALiveOnlyRegistrationItDidNotBuildAndCountsItApart() {
        let test = TestContainer(base: makeFindingsApp())
        let manifest = test.wiringManifest()

        let gateway = manifest.entries.first { $0.key == ServiceKey(LiveGateway.self) }
        #expect(gateway?.check == .liveOnly)
        #expect(gateway?.description == "LiveGateway [.graph] at App/Findings.swift (live-only, not run)")
        #expect(manifest.render().hasPrefix(
            "Wiring manifest: 5 registrations, 0 problems, 1 unchecked, 1 live-only not run\n"), "\(manifest)")
        // Not a gap in the check: what needs it is unchecked, the registration itself is not.
        #expect(!manifest.report.unchecked.contains(ServiceKey(LiveGateway.self)))
    }

    @Test func coverageTellsARefusedLiveOnlyRegistrationFromAResolvedOne() throws {
        let refusing = TestContainer(base: makeFindingsApp())
        refusing.wiringFindings(.allow("live-only"))
        RunningTests.$bound.withValue(TestRun(name: "AppTests.RefusedTests/refused()")) {
            _ = try? refusing.resolve(PayDesk.self)
        }
        let overriding = TestContainer(base: makeFindingsApp())
        overriding.override(LiveGateway.self, file: "AppTests/Doubles.swift", line: 4) { _ in LiveGateway() }
        try RunningTests.$bound.withValue(TestRun(name: "AppTests.PaidTests/paid()")) {
            _ = try overriding.resolve(PayDesk.self)
        }

        let coverage = WiringCoverage(testContainers: [refusing, overriding])

        let gateway = try #require(coverage.registrations.first { $0.key == "LiveGateway" })
        #expect(gateway.testCount == 0)
        #expect(gateway.refusedTestCount == 1)
        #expect(gateway.description == "LiveGateway [.graph] at App/Findings.swift:12 (live-only, refused in 1 test)")
        #expect(coverage.registrations.first { $0.key == "PayDesk" }?.testCount == 2)
        #expect(coverage.unresolved.map(\.key).contains("LiveGateway"))
        #expect(coverage.renderJSON().contains(
            "{ \"key\": \"LiveGateway\", \"scope\": \".graph\", \"file\": \"App/Findings.swift\", \"line\": 12, \"tests\": 0, \"refused\": 1 }"))
        // What the JSON says is what the report says, across processes too.
        #expect(try CoverageFile.decode(Data(coverage.renderJSON().utf8)) == coverage)
    }

    @Test func aReplacedModulesRegistrationsAreNoUnusedOverrides() throws {
        let test = TestContainer(base: Container(modules: [RNetworkModule()]))
        try test.replace(RNetworkModule.self, with: RFakeNetworkModule())

        #expect(test.unusedRegistrations().isEmpty, "\(test.unusedRegistrations())")
        let coverage = WiringCoverage(testContainers: [test])
        #expect(coverage.doubles.isEmpty, "\(coverage.render())")
    }
}

@Suite struct FakesAreFakesTests {
    @Test func aFakeAnsweringALiveOnlyKeyIsListedAsAFakeUsed() throws {
        let test = TestContainer(base: makeFindingsApp())
        test.fakes.register(LiveGateway.self) { LiveGateway() }
        _ = try test.resolve(PayDesk.self)

        #expect(test.fakes.fakedKeys == [ServiceKey(LiveGateway.self)])
        #expect(test.trace.render().contains("LiveGateway .graph new #1 (fake)"), "\(test.trace.render())")
    }

    @Test func aFakeStandingInForAKeptRegistrationKeepsItsScope() throws {
        let base = Container()
        base.register(LiveGateway.self) { _ in LiveGateway() }.scope(.container).liveOnly()
        let test = TestContainer(base: base)
        test.fakes.register(LiveGateway.self) { LiveGateway() }

        #expect(try test.resolve(LiveGateway.self) === test.resolve(LiveGateway.self), "\(test.trace.render())")
        // Unless the fake says otherwise.
        let other = TestContainer(base: base)
        other.fakes.register(LiveGateway.self) { LiveGateway() }.scope(.transient)
        #expect(try other.resolve(LiveGateway.self) !== other.resolve(LiveGateway.self))
    }
}
