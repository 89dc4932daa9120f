import Wiring

// The app the wiring coverage tests wrap, registered at fixed sites so that reports read the
// same wherever the tests sit: Checkout(Cart(Network), Payments(Network)), and a Logger that no
// test resolves.

/// The app's container, as a test helper would build it in every test.
package func makeCoverageApp() -> Container {
    let container = Container()
    container.register((any Network).self, file: "App/Setup.swift", line: 12) { _ in LiveNetwork() }.scope(.container)
    container.register(Cart.self, file: "App/Setup.swift", line: 14) { r in try Cart(network: r.resolve()) }
    container.register(Payments.self, file: "App/Setup.swift", line: 15) { r in try Payments(network: r.resolve()) }
    container.register(Checkout.self, file: "App/Setup.swift", line: 16) { r in
        try Checkout(cart: r.resolve(), payments: r.resolve())
    }
    container.register((any Logger).self, file: "App/Setup.swift", line: 20) { _ in ConsoleLogger() }.scope(.container)
    return container
}

/// A screen whose `@Injected` property resolves from `Container.current`, else `Container.shared`.
package final class CartScreen {
    @Injected package var cart: Cart

    package init() {}
}
