import Foundation
import Wiring

// The app wiring-mutants runs its tests against, registered at fixed sites so that its report
// reads the same wherever it runs. Each registration is there for one outcome (see
// FixtureAppTests and Tests/WiringMutantsTests/FixtureRunTests.swift).

/// Kept: screens post and read through one bus.
final class EventBus: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func post(_ event: String) { lock.withLock { events.append(event) } }
    var posted: [String] { lock.withLock { events } }
}

/// Kept, but no test depends on its being one: its `unshare` survives.
final class Mailer: @unchecked Sendable {
    private let lock = NSLock()
    private let delivers: Bool
    private var sent: [String] = []

    init(delivers: Bool = true) { self.delivers = delivers }

    func send(_ mail: String) {
        guard delivers else { return }
        lock.withLock { sent.append(mail) }
    }

    var delivered: [String] { lock.withLock { sent } }
}

/// Registered, never resolved by a test: not covered.
final class AuditLog: Sendable {}

/// Kept: a reader polls what a writer ticked, so a reader with a ticker of its own waits forever.
final class Ticker: @unchecked Sendable {
    private let lock = NSLock()
    private var ticks = 0

    func tick() { lock.withLock { ticks += 1 } }
    var count: Int { lock.withLock { ticks } }
}

/// Registered although it builds itself (`Injectable`): removing the registration, or faking it
/// with its own default, changes nothing a test sees.
struct GreetingFormatter: Injectable, Sendable {
    init(resolver: any Resolver) {}
    init() {}

    func greeting(for name: String) -> String { "Hello, \(name)!" }
}

func makeFixtureApp() -> Container {
    let container = Container()
    container.register(EventBus.self, file: "FixtureApp/Setup.swift", line: 10) { _ in EventBus() }.scope(.container)
    container.register(Mailer.self, file: "FixtureApp/Setup.swift", line: 11) { _ in Mailer() }.scope(.container)
    container.register(AuditLog.self, file: "FixtureApp/Setup.swift", line: 12) { _ in AuditLog() }.scope(.container)
    container.register(Ticker.self, file: "FixtureApp/Setup.swift", line: 13) { _ in Ticker() }.scope(.container)
    container.register(GreetingFormatter.self, file: "FixtureApp/Setup.swift", line: 14) { _ in GreetingFormatter() }
        .scope(.transient)
    return container
}

/// A payment gateway only a whole-graph check reaches: its `unregister` is caught by verification.
final class PaymentGateway: Sendable {}

final class Checkout: Sendable {
    let gateway: PaymentGateway
    init(gateway: PaymentGateway) { self.gateway = gateway }
}

func makeCheckoutApp() -> Container {
    let container = Container()
    container.register(PaymentGateway.self, file: "FixtureApp/Checkout.swift", line: 20) { _ in PaymentGateway() }
        .scope(.container)
    container.register(Checkout.self, file: "FixtureApp/Checkout.swift", line: 21) { r in
        try Checkout(gateway: r.resolve())
    }.scope(.transient)
    return container
}
