import Testing
import Wiring
import WiringTestSupport

// The LiveOnlyAndModuleReplacement article's live-only, module-replacement and leak examples, verbatim, checked.

protocol PaymentGateway: AnyObject, Sendable {}
final class StripeGateway: PaymentGateway {}
final class RecordingGateway: PaymentGateway {}
final class OrderDesk {
    let gateway: any PaymentGateway
    init(gateway: any PaymentGateway) { self.gateway = gateway }
}
final class OrderScreen {
    let desk: OrderDesk
    init(desk: OrderDesk) { self.desk = desk }
}

struct GatewayModule: Module {
    func register(in container: Container) {
        container.register(PaymentGateway.self) { _ in StripeGateway() }.liveOnly()
    }
}

struct FakeGatewayModule: Module {
    func register(in container: Container) {
        container.register(PaymentGateway.self) { _ in RecordingGateway() }
    }
}

struct OrdersModule: Module {
    func register(in container: Container) {
        container.register(OrderDesk.self) { r in try OrderDesk(gateway: r.resolve()) }
        container.register(OrderScreen.self) { r in try OrderScreen(desk: r.resolve()) }
    }
}

@Suite struct LiveOnlyReadme {
    private func makeContainer() -> Container {
        let container = Container()
        container.register(OrderDesk.self) { r in try OrderDesk(gateway: r.resolve()) }
        container.register(OrderScreen.self) { r in try OrderScreen(desk: r.resolve()) }
        return container
    }

    @Test func liveOnlyAndModules() throws {
        let container = makeContainer()

        container.register(PaymentGateway.self) { _ in StripeGateway() }.liveOnly()
        let test = TestContainer(base: container)
        test.wiringFindings(.allow("live-only"))                                     // this test expects the refusal
        #expect(throws: ResolutionError.self) { try test.resolve(OrderDesk.self) }   // live-only: OrderDesk -> PaymentGateway
        test.override(PaymentGateway.self) { _ in RecordingGateway() }
        let desk = try test.resolve(OrderDesk.self)                                  // the double; Stripe never runs
        #expect(desk.gateway is RecordingGateway)

        let modular = TestContainer(base: Container(modules: [GatewayModule(), OrdersModule()]))
        try modular.replace(GatewayModule.self, with: FakeGatewayModule())
        let fakeDesk = try modular.resolve(OrderDesk.self)          // its gateway comes from FakeGatewayModule
        #expect(fakeDesk.gateway is RecordingGateway)
    }

    @Test func leaks() throws {
        let container = makeContainer()
        container.register(PaymentGateway.self) { _ in RecordingGateway() }
        let test = TestContainer(base: container)
        test.isTrackingLeaks = true                                 // on by default in debug builds only

        var screen: OrderScreen? = try test.resolve(OrderScreen.self)
        screen = nil                                                 // the test's own references are gone
        #expect(test.leakedInstances().isEmpty)                      // or assertNoLeakedInstances(test)
        #expect(screen == nil)
    }
}
