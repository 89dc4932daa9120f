import Testing
import Wiring
import WiringTestSupport

// The CoverageAndTheSentinel article's wiring coverage example, verbatim inside a test. (The report it shows is a real
// run's: ChildRunTests in WiringSwiftTestingTests runs it again and compares.)

@Suite struct WiringCoverageReadme {
    @Test func theCoverageOfAFewTestContainers() throws {
        let first = TestContainer(base: makeAppContainer())
        let second = TestContainer(base: makeAppContainer())
        for test in [first, second] { test.override(Network.self) { _ in FakeNetwork() } }
        // Two tests, as WiringXCTest and WiringSwiftTesting would tell the test support.
        try RunningTests.$bound.withValue(TestRun(name: "AppTests.CheckoutTests/checkout()")) {
            _ = try first.resolve(Checkout.self)
        }
        try RunningTests.$bound.withValue(TestRun(name: "AppTests.CartTests/cart()")) {
            _ = try second.resolve(Cart.self)
        }

        let coverage = WiringCoverage(testContainers: [first, second])   // or WiringCoverage.current
        print(coverage)                                                 // Wiring coverage: 3 of 4 registrations resolved by 2 tests (75%)
        for entry in coverage.unresolved { print(entry) }               // Network [.container] at …
        let json = coverage.renderJSON()                                // coverage.render() is the text

        #expect(coverage.description == "Wiring coverage: 3 of 4 registrations resolved by 2 tests (75%)")
        #expect(coverage.unresolved.map(\.key) == ["Network"])
        #expect(json.hasPrefix("{\n  \"format\": \"wiring-coverage\",\n  \"version\": 1,\n"))
        #expect(coverage.render().hasPrefix(coverage.description + "\n\nRegistrations, with how many tests resolved each:\n"))
    }
}
