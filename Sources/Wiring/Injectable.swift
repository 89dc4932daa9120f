/// A type that builds itself from a resolver, so it resolves without being registered.
///
/// ```swift
/// final class Car: Injectable {
///     let engine: Engine
///     init(resolver: Resolver) throws { engine = try resolver.resolve() }
/// }
/// let car = try container.resolve(Car.self)     // no registration needed
/// ```
///
/// A registration for the type, if there is one, wins. Instances are `.graph` scoped unless the
/// type says otherwise with `static var scope`.
public protocol Injectable {
    /// Builds the instance, resolving what it needs.
    init(resolver: any Resolver) throws

    /// How long instances live when the type is resolved without a registration.
    static var scope: Scope { get }
}

extension Injectable {
    /// `.graph`: one instance per top-level resolve, unless the type declares its own scope.
    public static var scope: Scope { .graph }
}

/// A type the container can resolve without a registration, such as `Provider<T>` and `Lazy<T>`.
package protocol ImplicitlyResolvable {
    /// Makes the value for a request of this type under `name` from the source a resolution runs
    /// on, whose `.graph` instances are `graph` (when a resolution made the request).
    static func implicitInstance(name: String?, source: any ResolutionSource, graph: SharedGraph?) -> Self
}

extension ServiceKey {
    /// Whether the engine makes this type's values itself, with no registration, from the
    /// resolution asking (a `Provider`, a `Lazy`, a `ScopeResetter`).
    package var isMadeByTheEngine: Bool {
        serviceType is any ImplicitlyResolvable.Type
    }
}

/// The entries standing in for registrations of `Injectable` and `ImplicitlyResolvable` types,
/// made once per key so scopes can cache their instances.
package enum ImplicitRegistrations {
    private static let entries = LockedState<[ServiceKey: RegistrationEntry]>([:])

    package static func entry<Service>(for key: ServiceKey, as serviceType: Service.Type) -> RegistrationEntry? {
        if let entry = entries.withLock({ $0[key] }) { return entry }
        guard let entry = makeEntry(for: key, as: serviceType) else { return nil }
        return entries.withLock { entries in
            if let existing = entries[key] { return existing }
            entries[key] = entry
            return entry
        }
    }

    /// The entry made for `key` so far, if any: what `resetScope(_:only:)` looks at, which must
    /// not make one.
    package static func existingEntry(for key: ServiceKey) -> RegistrationEntry? {
        entries.withLock { $0[key] }
    }

    private static func makeEntry<Service>(for key: ServiceKey, as serviceType: Service.Type) -> RegistrationEntry? {
        let site = RegistrationSite(fileID: "(implicit)", line: 0)
        if let registering = Service.self as? any ImplicitlyRegistered.Type,
            let entry = registering.implicitEntry(for: key, site: site)
        {
            return entry
        }
        // Only the types above build a registration that takes runtime arguments.
        guard !key.takesArguments else { return nil }
        if let implicitType = Service.self as? any ImplicitlyResolvable.Type {
            let implicit = UncheckedSendable(implicitType)
            let name = key.name
            return FactoryEntry(key: key, site: site, options: .init(scope: .transient, isImplicit: true)) { resolver in
                let resolution = resolver as? Resolution
                let source = resolution?.source ?? (resolver as? any ResolutionSource)
                guard let source else { throw ImplicitSourceMissing() }
                return try cast(
                    implicit.value.implicitInstance(name: name, source: source, graph: resolution?.sharedGraph()),
                    to: Service.self)
            }
        }
        if key.name == nil, let injectableType = Service.self as? any Injectable.Type {
            let injectable = UncheckedSendable(injectableType)
            return FactoryEntry(key: key, site: site, options: .init(scope: injectableType.scope, isImplicit: true)) { resolver in
                try cast(injectable.value.init(resolver: resolver), to: Service.self)
            }
        }
        return nil
    }

    private static func cast<Service>(_ value: Any, to serviceType: Service.Type) throws -> Service {
        guard let service = value as? Service else {
            throw TypeMismatch(expected: Service.self, actual: type(of: value))
        }
        return service
    }
}

/// A type that makes the registration standing in for its own keys, such as `Optional<T>`
/// (for every key) and `Lazy<T>` (for keys with runtime arguments).
package protocol ImplicitlyRegistered {
    /// The entry for `key`, whose service type is this type, or `nil` to let the other rules
    /// (`ImplicitlyResolvable`, `Injectable`) decide. Made once per key.
    static func implicitEntry(for key: ServiceKey, site: RegistrationSite) -> RegistrationEntry?
}

struct ImplicitSourceMissing: Error, CustomStringConvertible {
    var description: String { "the resolver is neither a container nor a resolution in progress" }
}

extension Resolver {
    /// The resolution an implicit registration's factory runs in (it always receives one).
    package func runningResolution() throws -> Resolution {
        guard let resolution = self as? Resolution else { throw ImplicitSourceMissing() }
        return resolution
    }
}
