// The app graph of these examples (makeAppContainer, Network…) comes from the shared helpers;
// the README shows the rest of this file as it is.
import WiringTestHelpers
import Testing
import WiringSwiftTesting

@Test(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork() })
func checkout() throws {
    let test = try #require(TestContainer.current)          // this test's own, made for it
    let checkout = try test.resolve(Checkout.self)
    #expect(checkout.payments.network is FakeNetwork)
    assertScope(Network.self, is: .container, in: test)       // the double is a singleton too
    assertNoUnusedRegistrations(test)
    assertTraceSnapshot(test.trace, named: "checkout")        // __Snapshots__/CheckoutTests/checkout.checkout.txt
}

@Suite(.testContainer { makeAppContainer() }, .fakes { fakes in fakes.register(Analytics.self) { NoopAnalytics() } })
struct CheckoutSuite {
    @Test(arguments: ["a", "b", "c"])
    func eachArgumentHasItsOwnContainer(label: String) throws {
        let test = try #require(TestContainer.current)
        test.override(Network.self) { _ in FakeNetwork(label: label) }   // seen by this argument only
        #expect(try test.resolve(Checkout.self).cart.network.label == label)
    }
}
