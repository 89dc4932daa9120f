import Wiring

// The app the tests of findings wrap: one mistake a test can make with each of its
// registrations, at fixed sites so that the messages read the same wherever the tests sit.

/// A real payment gateway: registered live-only, so a test container refuses to run it.
package final class LiveGateway: Sendable {
    package init() {}
}

/// What a checkout screen uses to pay.
package final class PayDesk: Sendable {
    package let gateway: LiveGateway

    package init(gateway: LiveGateway) {
        self.gateway = gateway
    }
}

/// A screen that keeps itself alive through a closure it holds: a leak.
package final class SelfKeepingScreen: @unchecked Sendable {
    package var onClose: (() -> Void)?

    package init() {
        onClose = { _ = self }
    }
}

/// Made by a factory that resolves from the container it captured, not through its resolver.
package final class BypassingSync: Sendable {
    package let network: any Network

    package init(network: any Network) {
        self.network = network
    }
}

/// The app's container: a network, a live-only gateway and what needs it, a screen that leaks,
/// and a factory that bypasses its resolver.
package func makeFindingsApp() -> Container {
    let container = Container()
    container.register((any Network).self, file: "App/Findings.swift", line: 10) { _ in LiveNetwork() }.scope(.container)
    container.register(LiveGateway.self, file: "App/Findings.swift", line: 12) { _ in LiveGateway() }.liveOnly()
    container.register(PayDesk.self, file: "App/Findings.swift", line: 13) { r in try PayDesk(gateway: r.resolve()) }
    container.register(SelfKeepingScreen.self, file: "App/Findings.swift", line: 14) { _ in SelfKeepingScreen() }
    container.register(BypassingSync.self, file: "App/Findings.swift", line: 15) { [weak container] _ in
        try BypassingSync(network: container!.resolve())
    }
    return container
}
