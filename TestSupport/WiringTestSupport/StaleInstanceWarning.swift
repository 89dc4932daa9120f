import Wiring

/// A cached instance handed out after something it was made with had been overridden: it still
/// holds the old dependency, so the override does not reach it.
public struct StaleInstanceWarning: Hashable, Sendable, CustomStringConvertible {
    /// The cached service.
    public let service: ServiceKey
    /// Its number in the trace.
    public let instance: Int?
    /// What it depends on that is now overridden.
    public let dependency: ServiceKey
    /// The layer of the override.
    public let overriddenIn: String
    /// Where the override was registered.
    public let site: RegistrationSite

    /// The warning as the trace shows it: what went stale, why, and the two ways to fix it.
    public var description: String {
        let cached = instance.map { "\(service) #\($0)" } ?? "\(service)"
        return "\(cached) was cached before \(dependency) was overridden in \(overriddenIn) (\(site)), "
            + "so it still holds the old \(dependency). Override \(dependency) before \(service) is first "
            + "resolved, or push a layer first so the cached \(service) is made again inside it."
    }
}
