import Testing
import Wiring

// Behaviours only one other test caught: each test here reaches the same behaviour by another
// path, so that a regression of it fails two tests of different shapes.

private final class Checkout: @unchecked Sendable {
    let gateway: Gateway
    init(gateway: Gateway) { self.gateway = gateway }
}

private final class Gateway: @unchecked Sendable {
    let ledger: Ledger
    init(ledger: Ledger) { self.ledger = ledger }
}

private final class Ledger: @unchecked Sendable {}

@Suite("Thin spots: behaviours reached by a second path")
struct ThinSpotTests {
    /// A factory resolving from another container it captured starts a call there that
    /// continues the running path: an error deep in that call names every key from the first
    /// request, not only those of the other container's call.
    @Test func aMissingRegistrationBehindACallOnAnotherContainerNamesThePathFromTheFirstRequest() throws {
        let app = Container()
        let payments = Container()
        app.register(Checkout.self) { _ in try Checkout(gateway: payments.resolve()) }
        payments.register(Gateway.self) { r in try Gateway(ledger: r.resolve()) }

        let error = try #require(throws: ResolutionError.self) { try app.resolve(Checkout.self) }

        #expect(error.identifier == "not-registered")
        #expect(error.path == [ServiceKey(Checkout.self), ServiceKey(Gateway.self), ServiceKey(Ledger.self)])
        #expect(error.description == """
            error: no registration for Ledger
              path: Checkout -> Gateway -> Ledger
              fix: register it with `container.register(Ledger.self) { r in … }` (or in a module the container is built from).
            """)
    }

    /// An async factory awaiting a container it captured starts a top-level async call, which
    /// continues the path of the resolution running the factory: an error deep in it names
    /// every key from the first request.
    @Test func aMissingRegistrationBehindAnAsyncCallOnACapturedContainerNamesThePathFromTheFirstRequest() async throws {
        let container = Container()
        container.registerAsync(Checkout.self) { [weak container] _ in try await Checkout(gateway: container!.async.resolve()) }
        container.register(Gateway.self) { r in try Gateway(ledger: r.resolve()) }

        let error = await #expect(throws: ResolutionError.self) { try await container.async.resolve(Checkout.self) }

        #expect(error?.identifier == "not-registered")
        #expect(error?.path == [ServiceKey(Checkout.self), ServiceKey(Gateway.self), ServiceKey(Ledger.self)])
        #expect(error?.description == """
            error: no registration for Ledger
              path: Checkout -> Gateway -> Ledger
              fix: register it with `container.register(Ledger.self) { r in … }` (or in a module the container is built from).
            """)
    }
}
