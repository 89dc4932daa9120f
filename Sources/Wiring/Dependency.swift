/// A service a registration needs, known without running its factory (the parameters of an
/// autowired initializer).
public struct Dependency: Hashable, Sendable, CustomStringConvertible {
    /// The key the dependency is resolved with.
    public let key: ServiceKey
    /// Whether the parameter is optional, so a missing registration resolves to `nil`.
    public let isOptional: Bool

    /// A dependency on `key`; an optional one resolves to `nil` when nothing is registered.
    public init(key: ServiceKey, isOptional: Bool = false) {
        self.key = key
        self.isOptional = isOptional
    }

    /// The key, followed by `?` when the dependency is optional.
    public var description: String { isOptional ? "\(key)?" : key.description }
}

/// What a container knows about one of its registrations, without running its factory.
public struct RegistrationInfo: Sendable, CustomStringConvertible {
    /// The key it is stored under.
    public let key: ServiceKey
    /// How long its instances live.
    public let scope: Scope
    /// Where it was registered.
    public let site: RegistrationSite
    /// The services it needs, when they are known statically (autowired registrations);
    /// `nil` for a factory closure, whose dependencies show only when it runs.
    public let dependencies: [Dependency]?
    /// Whether `bootstrap()` makes it ahead of the first request.
    public let isEager: Bool
    /// Where its factory runs when a synchronous resolve cannot run it (`registerMainActor`,
    /// `registerAsync`); `nil` for a plain factory, which runs wherever it is resolved.
    public let isolation: FactoryIsolation?

    package init(_ entry: RegistrationEntry) {
        key = entry.key
        scope = entry.scope
        site = entry.site
        dependencies = entry.options.dependencies
        isEager = entry.options.isEager
        isolation = entry.factoryIsolation
    }

    /// The key, its scope and its site: `Database [.container] at App/Setup.swift:12`.
    public var description: String { "\(key) [\(scope)] at \(site)" }
}

extension Container {
    /// This container's registrations (not its parents'), in registration order.
    public var registrations: [RegistrationInfo] {
        visibleRegistrations(includingParents: false).map { RegistrationInfo($0.entry) }
    }

    /// The registration a resolution of `key` would use, here or in a parent, if any.
    public func registration(for key: ServiceKey) -> RegistrationInfo? {
        lookup(key).map { RegistrationInfo($0.entry) }
    }
}

extension Registration {
    /// The services this registration needs, when known statically (autowired registrations).
    public var dependencies: [Dependency]? {
        container.registration(for: key)?.dependencies
    }
}
