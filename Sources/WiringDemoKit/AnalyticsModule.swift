import Wiring

// Analytics: several trackers, told apart by name, behind one facade that reports to all of them.

protocol AnalyticsTracker: AnyObject {
    var vendor: String { get }
}

final class ConsoleTracker: AnalyticsTracker {
    let vendor = "console"
}

final class RemoteTracker: AnalyticsTracker {
    let vendor = "remote"
}

final class Analytics {
    let trackers: [AnalyticsTracker]
    init(trackers: [AnalyticsTracker]) { self.trackers = trackers }

    var vendors: [String] { trackers.map(\.vendor) }
}

/// Registers one tracker per vendor under its name, and the facade that collects every one of
/// them with `resolveAll`, so adding a vendor is one registration.
struct AnalyticsModule: Module {
    func register(in container: Container) {
        container.register(AnalyticsTracker.self, name: "console") { _ in ConsoleTracker() }.scope(.container)
        container.register(AnalyticsTracker.self, name: "remote") { _ in RemoteTracker() }.scope(.container)
        container.register(Analytics.self) { r in try Analytics(trackers: r.resolveAll(AnalyticsTracker.self)) }
            .scope(.container)
    }
}
