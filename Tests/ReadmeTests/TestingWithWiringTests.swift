import Testing
import Wiring
import WiringTestSupport

@Test func checkoutChargesThroughTheNetwork() throws {
    let test = TestContainer(base: makeAppContainer())     // the app's own wiring
    test.override(Network.self) { _ in FakeNetwork() }      // at every depth, keeping its scope

    let checkout = try test.resolve(Checkout.self)
    #expect(checkout.payments.network is FakeNetwork)
    #expect(test.resolutionCount(of: Network.self) == 2)
    #expect(test.unusedRegistrations().isEmpty)             // nothing registered in vain
    #expect(test.trace.render() == """
        Checkout .graph new #4
        ├── Cart .graph new #2
        │   └── Network .container new #1 (override "test")
        └── Payments .graph new #3
            └── Network .container cached #1 (override "test")
        """)
}

// The other examples of the LayersAndParallelTests article (once the README's "Testing with Wiring"), verbatim inside tests.

@Suite struct TestingWithWiring {
    /// The article's block, verbatim, with what it promises (one registration only is tested
    /// apart from the rest of its scope in `TestContainerTests`).
    @Test func aTestContainerResetsAScopeOrOneRegistrationOfIt() throws {
        let base = Container()
        base.register(Session.self) { _ in Session() }.scope(.session)
        let keptByBase = try base.resolve(Session.self)
        let test = TestContainer(base: base)
        let first = try test.resolve(Session.self)
        test.resetScope(.session)                                      // every instance of the scope
        let second = try test.resolve(Session.self)
        test.resetScope(.session, only: ServiceKey(Session.self))      // the Session only; the rest stay
        #expect(second !== first)
        #expect(try test.resolve(Session.self) !== second)
        #expect(try base.resolve(Session.self) === keptByBase)
    }

    @Test func aLayerIsGoneOnceItIsPopped() throws {
        let test = TestContainer(base: makeAppContainer())

        test.pushLayer("offline")
        test.override(Network.self) { _ in OfflineNetwork() }
        let offline = try test.resolve(Checkout.self)   // made with OfflineNetwork
        test.popLayer()                                 // back to the state before the push

        #expect(offline.cart.network is OfflineNetwork)
        #expect(try test.resolve(Checkout.self).cart.network is LiveNetwork)
    }

    @Test func withOverridesBindsALayerToThisTask() async throws {
        let test = TestContainer(base: makeReportingContainer())

        let report = try test.withOverrides({ layer in layer.override(Clock.self) { _ in FixedClock() } }) {
            try test.resolve(Report.self)                     // only this task sees FixedClock
        }
        try await test.withOverrides({ layer in layer.override(Clock.self) { _ in FixedClock() } }) {
            try await refresh(using: test)
        }

        #expect(report.clock is FixedClock)
        #expect(try test.resolve(Report.self).clock is SystemClock)
    }

    @Test func verifyWiringBuildsRegistrationsThatTakeArguments() throws {
        let container = makeAppContainer()
        container.register(ProductViewModel.self) { (r, productID: Int) in
            try ProductViewModel(productID: productID, checkout: r.resolve())
        }
        let test = TestContainer(base: container)

        let report = test.verifyWiring { samples in
            samples.add(ProductViewModel.self, arguments: 42)
        }
        #expect(report.isComplete, "\(report)")
        for problem in report.problems { print(problem.identifier, problem.message) }

        #expect(report.unchecked.isEmpty)
    }
}
