import Foundation
import WiringXCTest
import XCTest

// The app graph of WiringTestSupportTests: Checkout(Cart(Network), Payments(Network)), with a
// singleton Network; and services of every scope, for the scope checks.

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

protocol Analytics: Sendable {}
struct NoopAnalytics: Analytics {}

protocol Logger: Sendable {}
final class ConsoleLogger: Logger {}

/// The app's container, as the app would build it.
func makeAppContainer() -> Container {
    let container = Container()
    container.register((any Network).self) { _ in LiveNetwork() }.scope(.container)
    container.register(Cart.self) { r in try Cart(network: r.resolve()) }
    container.register(Payments.self) { r in try Payments(network: r.resolve()) }
    container.register(Checkout.self) { r in try Checkout(cart: r.resolve(), payments: r.resolve()) }
    return container
}

/// Where `container` registered a type, as messages show it.
func siteOf<Service>(_ type: Service.Type, name: String? = nil, in container: Container) -> String {
    container.registration(for: ServiceKey(type, name: name))?.site.description ?? "not registered"
}

// MARK: Scopes

final class Database: Sendable {}
final class RequestContext: Sendable {}
final class Session: Sendable {}
final class Screen: Sendable {}
struct Settings: Sendable { var theme = "dark" }

extension Scope {
    static let session = Scope("session")
}

/// One service of each scope, each registered as its name says.
func makeScopedContainer() -> Container {
    let container = Container()
    container.register(Database.self) { _ in Database() }.scope(.container)
    container.register(RequestContext.self) { _ in RequestContext() }            // .graph, the default
    container.register(Screen.self) { _ in Screen() }.scope(.transient)
    container.register(Session.self) { _ in Session() }.scope(.session)
    container.register(Settings.self) { _ in Settings() }.scope(.container)
    return container
}

/// A value behind a lock, to collect from closures that may run on any thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// MARK: Capturing failures

/// A test case that can catch the failures an assertion records, to check them: message, file
/// and line. Failures outside `captureFailures` fail the test as usual.
class FailureCapturingTestCase: XCTestCase {
    /// A failure an assertion recorded: its message and where it was reported.
    struct CapturedFailure {
        let message: String
        let filePath: String
        let line: Int
    }

    private var captured: [CapturedFailure]?

    /// Runs `body` and returns the failures it recorded instead of failing the test with them.
    func captureFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
        captured = []
        defer { captured = nil }
        try body()
        return captured ?? []
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard captured != nil else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        // XCTFail prefixes the message it was given.
        let message = description.hasPrefix("failed - ") ? String(description.dropFirst("failed - ".count)) : description
        captured?.append(CapturedFailure(message: message, filePath: filePath, line: lineNumber))
    }
}

/// Indents every line by two spaces, as failure messages nest an error's text.
func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}

/// The text of the error resolving `type` throws.
func resolutionErrorText<Service>(_ type: Service.Type, in resolver: any Resolver) -> String {
    do {
        _ = try resolver.resolve(type)
        return ""
    } catch {
        return "\(error)"
    }
}
