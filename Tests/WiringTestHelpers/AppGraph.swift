import Foundation
import Wiring

// The app graph the test targets share: Checkout(Cart(Network), Payments(Network)), with a
// singleton Network; and services of every scope, for the scope checks.

package protocol Network: AnyObject, Sendable {
    var label: String { get }
}

package final class LiveNetwork: Network {
    package let label = "live"
    package init() {}
}

package final class FakeNetwork: Network {
    package let label: String
    package init(label: String = "fake") { self.label = label }
}

package final class Cart: Sendable {
    package let network: any Network
    package init(network: any Network) { self.network = network }
}

package final class Payments: Sendable {
    package let network: any Network
    package init(network: any Network) { self.network = network }
}

package final class Checkout: Sendable {
    package let cart: Cart
    package let payments: Payments
    package init(cart: Cart, payments: Payments) {
        self.cart = cart
        self.payments = payments
    }
}

package protocol Analytics: Sendable {}
package struct NoopAnalytics: Analytics {
    package init() {}
}

package protocol Logger: Sendable {}
package final class ConsoleLogger: Logger {
    package init() {}
}

/// Counts calls from any thread.
package final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    package init() {}

    package func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    package var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// The app's container, as the app would build it.
/// - Parameter networkMade: Counts the `Network`s made.
package func makeAppContainer(networkMade: Tally = Tally()) -> Container {
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

/// Where `container` registered a type, as messages show it.
package func siteOf<Service>(_ type: Service.Type, name: String? = nil, in container: Container) -> String {
    container.registration(for: ServiceKey(type, name: name))?.site.description ?? "not registered"
}

// MARK: Scopes

package final class Database: Sendable {
    package init() {}
}
package final class RequestContext: Sendable {
    package init() {}
}
package final class Session: Sendable {
    package init() {}
}
package final class Screen: Sendable {
    package init() {}
}
package struct Settings: Sendable {
    package var theme = "dark"
    package init() {}
}

extension Scope {
    package static let session = Scope("session")
}

/// One service of each scope, each registered as its name says.
package func makeScopedContainer() -> Container {
    let container = Container()
    container.register(Database.self) { _ in Database() }.scope(.container)
    container.register(RequestContext.self) { _ in RequestContext() }            // .graph, the default
    container.register(Screen.self) { _ in Screen() }.scope(.transient)
    container.register(Session.self) { _ in Session() }.scope(.session)
    container.register(Settings.self) { _ in Settings() }.scope(.container)
    return container
}

/// A value behind a lock, to collect from closures that may run on any thread.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }

    package func get() -> Value {
        withLock { $0 }
    }
}

/// Indents every line by two spaces, as failure messages nest an error's text.
package func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}

/// The text of the error resolving `type` throws.
package func resolutionErrorText<Service>(_ type: Service.Type, in resolver: any Resolver) -> String {
    do {
        _ = try resolver.resolve(type)
        return ""
    } catch {
        return "\(error)"
    }
}
