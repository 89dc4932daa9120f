import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Every deprecated declaration of the test half still works, as it did (API-CHANGES.md lists
// them). Each test is itself deprecated, so the suite builds without warnings.

private final class DNetwork: Sendable {}
private final class DCart: Sendable {
    init(network: DNetwork) {}
}

@Suite struct DeprecatedAPITests {
    @available(*, deprecated, message: "proves that the deprecated WiringManifest.problems still works")
    @Test func aManifestsProblemsAreThoseOfItsReport() throws {
        let base = Container()
        base.register(DCart.self) { r in try DCart(network: r.resolve()) }
        let manifest = TestContainer(base: base).wiringManifest()
        #expect(manifest.problems.map(\.identifier) == ["missing-dependency"])
        #expect(manifest.problems == manifest.report.problems)
    }

    @available(*, deprecated, message: "proves that the deprecated WiringCoverage.summary still works")
    @Test func aCoveragesSummaryIsItsDescription() throws {
        let coverage = WiringCoverage(testContainers: try ThreeTests.make())
        #expect(coverage.summary == "Wiring coverage: 4 of 5 registrations resolved by 3 tests (80%)")
        #expect(coverage.summary == coverage.description)
    }

    @available(*, deprecated, message: "proves that the deprecated TestContainer.explain(_:as:) still works")
    @Test func aKeyIsExplainedAsItsTypeAndArgumentTypesAre() throws {
        let base = Container()
        base.register(DCart.self) { (_, label: String) in DCart(network: DNetwork()) }
        let test = TestContainer(base: base)
        let key = ServiceKey(DCart.self, arguments: String.self)
        let byKey = test.explain(key, as: DCart.self)
        #expect(byKey.key == key)
        #expect(byKey.answer != nil)
        #expect(byKey.description == test.explain(DCart.self, arguments: String.self).description)
    }
}
