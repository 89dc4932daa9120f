/// `Optional<T>` resolves without a registration: to the service when something is registered
/// for `T` (under the same name and runtime-argument types), to `nil` when nothing is.
///
/// ```swift
/// let logger = try container.resolve(Logger?.self)                 // nil when no Logger is registered
/// container.register(Checkout.self) { r in try Checkout(analytics: r.resolve(Analytics?.self)) }
/// ```
///
/// Only a missing registration gives `nil`: a registration whose factory fails, or whose
/// dependencies are missing, still throws, so a broken graph is never silently left out.
/// `Injectable` types, `Provider` and `Lazy` count as registered. A registration for the
/// optional type itself wins.
extension Optional: ImplicitlyRegistered {
    package static func implicitEntry(for key: ServiceKey, site: RegistrationSite) -> RegistrationEntry? {
        let wrappedKey = ServiceKey(serviceType: Wrapped.self, name: key.name, argumentList: key.argumentList)
        let options = RegistrationEntry.Options(scope: .transient, isImplicit: true)
        guard key.takesArguments else {
            // An async resolve awaits the wrapped registration, whose factory may need it.
            let awaiting = IsolatedFactory<Wrapped?>.awaiting { resolver, _ in
                do {
                    return try await resolver.resolve(Wrapped.self, name: wrappedKey.name)
                } catch let error as ResolutionError where error.key == wrappedKey && error.identifier == "not-registered" {
                    return nil
                }
            }
            return FactoryEntry<Wrapped?>(key: key, site: site, options: options, isolatedFactory: awaiting) { resolver in
                let resolution = try resolver.runningResolution()
                guard let found = resolution.lookup(wrappedKey, as: Wrapped.self) else { return nil }
                return try resolution.resolve(wrappedKey, as: Wrapped.self, found: found)
            }
        }
        // The runtime arguments are the wrapped registration's: the same tuple, passed on.
        return ArgumentFactoryEntry<Wrapped?>(key: key, site: site, options: options) { resolver, arguments in
            let resolution = try resolver.runningResolution()
            guard let found = resolution.lookup(wrappedKey, as: Wrapped.self) else { return nil }
            return try resolution.resolve(wrappedKey, as: Wrapped.self, found: found, arguments: arguments)
        }
    }
}
