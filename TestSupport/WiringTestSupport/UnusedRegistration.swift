import Wiring

/// A registration or override that no resolution through the test container used.
public struct UnusedRegistration: Hashable, Sendable, CustomStringConvertible {
    /// The key it is registered under.
    public let key: ServiceKey
    /// Where it was registered.
    public let site: RegistrationSite
    /// The layer holding it, for an override; `nil` for a registration of the base.
    public let layer: String?

    /// The key, then where it was registered, naming the layer for an override.
    public var description: String {
        if let layer { return "\(key), overridden in layer \"\(layer)\" at \(site)" }
        return "\(key), registered at \(site)"
    }
}
