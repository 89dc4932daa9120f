import WiringTestHelpers
import WiringXCTest
import XCTest

final class CheckoutTests: XCTestCase {
    func testCheckoutChargesThroughTheFakeNetwork() throws {
        let test = makeTestContainer(base: makeAppContainer())     // every layer pushed is popped at teardown
        test.override(Network.self) { _ in FakeNetwork() }
        let checkout = try XCTUnwrap(assertResolves(Checkout.self, in: test))
        XCTAssertTrue(checkout.payments.network is FakeNetwork)
        assertScope(Network.self, is: .container, in: test)
        assertWiringComplete(test)
        assertNoUnusedRegistrations(test)
        assertTraceSnapshot(test.trace, named: "checkout")      // in __Snapshots__/CheckoutTests/ beside this file
    }
}
