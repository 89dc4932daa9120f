import Foundation
import Wiring

// The types the README's and the articles' examples use, beyond the quick start's. Each is as small as the
// examples allow: the point is that the examples compile and do what their comments say.

// MARK: Tour of the core

protocol Logger: AnyObject, Sendable {}
protocol Logging: AnyObject {}
final class ConsoleLogger: Logger, Logging {}

final class Session {}

extension Scope { static let session = Scope("session") }

final class Parent {
    var child: Child?
}

final class Child {
    unowned let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

final class Household {
    let pet: Pet
    init(pet: Pet) { self.pet = pet }
}

final class Pet {
    weak var household: Household?
}

protocol HTTPClient: AnyObject {}
final class URLSessionClient: HTTPClient {}
final class StubClient: HTTPClient {}

final class DiskStore {}

struct StorageModule: Module {
    func register(in container: Container) {
        container.register(DiskStore.self) { _ in DiskStore() }.scope(.container)
    }
}

struct DebugModule: Module {
    func register(in container: Container) {
        container.register(HTTPClient.self) { _ in StubClient() }.scope(.container)
    }
}

final class Engine {}

class Database {
    static func connect(to url: DatabaseURL) async throws -> Database {
        Database()
    }
}

final class SQLiteDatabase: Database {
    static func open() throws -> SQLiteDatabase {
        SQLiteDatabase()
    }
}

struct DatabaseURL {
    let path: String
}

protocol KeyValueStore: AnyObject {}
final class MemoryStore: KeyValueStore {}

@MainActor final class CheckoutViewModel {
    let cart: Cart
    init(cart: Cart) { self.cart = cart }
}

// MARK: Testing with Wiring

protocol Network: AnyObject {}
final class LiveNetwork: Network {}
final class FakeNetwork: Network {}
final class OfflineNetwork: Network {}

final class Cart {
    let network: any Network
    init(network: any Network) { self.network = network }
}

final class Payments {
    let network: any Network
    init(network: any Network) { self.network = network }
}

final class Checkout {
    let cart: Cart
    let payments: Payments
    init(cart: Cart, payments: Payments) {
        self.cart = cart
        self.payments = payments
    }
}

/// The app's container in the testing articles' examples: a checkout over one shared network.
func makeAppContainer() -> Container {
    let container = Container()
    container.register(Network.self) { _ in LiveNetwork() }.scope(.container)
    container.register(Cart.self) { r in try Cart(network: r.resolve()) }
    container.register(Payments.self) { r in try Payments(network: r.resolve()) }
    container.register(Checkout.self) { r in try Checkout(cart: r.resolve(), payments: r.resolve()) }
    return container
}

protocol Clock: Sendable {}
struct SystemClock: Clock {}
struct FixedClock: Clock {}

final class Report: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}

/// A container with a report that reads the time, for the `withOverrides` examples.
func makeReportingContainer() -> Container {
    let container = Container()
    container.register(Clock.self) { _ in SystemClock() }
    container.register(Report.self) { r in try Report(clock: r.resolve()) }
    return container
}

/// Some async work that resolves what it needs, as a test would call it.
func refresh(using resolver: any Resolver) async throws {
    let report = try resolver.resolve(Report.self)
    guard report.clock is FixedClock else { throw RefreshUsedTheRealClock() }
}

struct RefreshUsedTheRealClock: Error {}

final class ProductViewModel {
    let productID: Int
    let checkout: Checkout
    init(productID: Int, checkout: Checkout) {
        self.productID = productID
        self.checkout = checkout
    }
}

// MARK: DocC articles

protocol Analytics: Sendable {}
struct NoopAnalytics: Analytics {}

final class AnalyticsReporter: Sendable {
    let analytics: any Analytics
    init(analytics: any Analytics) { self.analytics = analytics }
}
