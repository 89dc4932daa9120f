import Foundation
import Wiring
import WiringTestSupport

// A small app graph: Checkout(Cart(Network), Payments(Network)), with a singleton Network.

protocol Network: AnyObject, Sendable {
    var label: String { get }
}

final class LiveNetwork: Network {
    let label = "live"
}

final class FakeNetwork: Network {
    let label: String
    init(label: String = "fake") { self.label = label }
}

final class Cart: Sendable {
    let network: any Network
    init(network: any Network) { self.network = network }
}

final class Payments: Sendable {
    let network: any Network
    init(network: any Network) { self.network = network }
}

final class Checkout: Sendable {
    let cart: Cart
    let payments: Payments
    init(cart: Cart, payments: Payments) {
        self.cart = cart
        self.payments = payments
    }
}

/// Not class-bound: an instance of it is an existential that may hold an object or a value.
protocol Labelled: Sendable {
    var label: String { get }
}

extension LiveNetwork: Labelled {}

/// Two classes of the same size, so that one may be allocated where the other was.
final class Ticket: Sendable {
    let serial = 0
}

final class Receipt: Sendable {
    let serial = 0
}

protocol Analytics: Sendable {}
struct NoopAnalytics: Analytics {}

final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// The app's container, as the app would build it.
func makeAppContainer(networkMade: Tally = Tally()) -> Container {
    let container = Container()
    container.register((any Network).self) { _ in
        networkMade.increment()
        return LiveNetwork()
    }
    .scope(.container)
    container.register(Cart.self) { r in try Cart(network: r.resolve()) }
    container.register(Payments.self) { r in try Payments(network: r.resolve()) }
    container.register(Checkout.self) { r in try Checkout(cart: r.resolve(), payments: r.resolve()) }
    return container
}
