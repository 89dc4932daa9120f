/// A registration just made, for setting its options in a chain.
///
/// ```swift
/// container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
///     .scope(.container)
///     .initCompleted { r, owner in owner.food = try? r.resolve(Food.self) }
/// ```
public struct Registration<Service>: Sendable {
    /// The key the registration is stored under.
    public let key: ServiceKey
    package let id: Int
    package let container: Container

    package init(key: ServiceKey, id: Int, container: Container) {
        self.key = key
        self.id = id
        self.container = container
    }

    /// Sets how long resolved instances live and who shares them.
    /// - Parameter scope: `.transient`, `.graph` (the default), `.container`, `.weak` or a custom `Scope`.
    @discardableResult
    public func scope(_ scope: Scope) -> Registration {
        container.updateOptions(key: key, id: id) { $0.scope = scope }
        return self
    }

    /// Marks the registration live-only: it reaches something real (a payment gateway, a
    /// production server) that no test may use. A plain `Container` resolves it as usual; a
    /// `TestContainer` refuses to run its factory unless an override or a fake answers the key,
    /// and throws a `live-only` error naming the key, the path and the fix. `verifyWiring()`
    /// never runs it.
    ///
    /// ```swift
    /// container.register(PaymentGateway.self) { _ in StripeGateway() }.liveOnly()
    /// ```
    ///
    /// A module whose registrations are all live-only says so once: ``Module/isLiveOnly``.
    @discardableResult
    public func liveOnly() -> Registration {
        container.updateOptions(key: key, id: id) { $0.isLiveOnly = true }
        return self
    }

    /// Adds a hook that runs after the factory, once the instance is in its scope: the place to set
    /// properties, including back references that would otherwise be a cycle.
    ///
    /// The hook runs with the instance already cached, so a `.graph` or `.container` service can
    /// resolve something that points back to it.
    /// - Parameter hook: Receives the resolver of the resolution in progress and the new instance.
    @discardableResult
    public func initCompleted(_ hook: @escaping @Sendable (any Resolver, Service) throws -> Void) -> Registration {
        let erased: RegistrationEntry.Hook = { resolver, instance in
            guard let instance = instance as? Service else { return }
            try hook(resolver, instance)
        }
        container.updateOptions(key: key, id: id) { $0.hooks.append(erased) }
        return self
    }

    /// Also serves the registration under another type, such as a protocol the service conforms
    /// to. The instance is the one this registration's scope gives: a `.container` service
    /// resolved as either type is the same object.
    ///
    /// ```swift
    /// container.register(ConsoleLogger.self) { _ in ConsoleLogger() }
    ///     .scope(.container)
    ///     .implements(Logging.self)
    /// ```
    ///
    /// A registration that takes runtime arguments is served under the other type with the same
    /// argument types: `resolve(Animal.self, arguments: "Rex", 3)` passes them on.
    /// - Parameters:
    ///   - otherType: The additional type to serve the instance as.
    ///   - name: The name to register it under, if any.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    @discardableResult
    public func implements<Other>(
        _ otherType: Other.Type, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Registration {
        let target = key
        let forwarded = ServiceKey(serviceType: otherType, name: name, argumentList: target.argumentList)
        let site = RegistrationSite(file, line)
        // Transient: the instance is the target's, kept (or not) by the target's own scope.
        let options = RegistrationEntry.Options(scope: .transient)
        // A target that must be awaited is awaited by an async resolve of the other type too.
        let awaited = container.registry[target].flatMap { $0.needsAwait ? $0 : nil }
        let entry: RegistrationEntry
        if target.takesArguments {
            let resolveAsync = (awaited as? ArgumentFactoryEntry<Service>)?.arguments?.resolveAsync
            let isolated = resolveAsync.map { resolveAsync in
                IsolatedFactory<Other>.awaiting { resolver, arguments in
                    try Self.convert(await resolveAsync(resolver, target, arguments), to: Other.self, from: target)
                }
            }
            entry = ArgumentFactoryEntry<Other>(
                key: forwarded, site: site, options: options, isolatedFactory: isolated
            ) { resolver, arguments in
                // The arguments tuple of the forwarded key is the target's: passed on as it is.
                let resolution = try resolver.runningResolution()
                return try Self.convert(
                    resolution.resolve(target, as: Service.self, found: nil, arguments: arguments), to: Other.self, from: target)
            }
        } else {
            let isolated = awaited.map { _ in
                IsolatedFactory<Other>.awaiting { resolver, _ in
                    try Self.convert(await resolver.resolve(Service.self, name: target.name), to: Other.self, from: target)
                }
            }
            entry = FactoryEntry<Other>(key: forwarded, site: site, options: options, isolatedFactory: isolated) { resolver in
                try Self.convert(resolver.resolve(Service.self, name: target.name), to: Other.self, from: target)
            }
        }
        let _: Registration<Other> = container.add(entry)
        return self
    }

    private static func convert<Other>(_ instance: Service, to otherType: Other.Type, from target: ServiceKey) throws -> Other {
        guard let converted = instance as? Other else {
            throw TypeMismatch(expected: Other.self, actual: type(of: instance as Any), servedFor: target)
        }
        return converted
    }
}

/// Thrown by a factory whose value is not of the registered type; the resolution turns it into
/// a `ResolutionError` with the key and path.
package struct TypeMismatch: Error {
    package let expected: any Any.Type
    package let actual: any Any.Type
    /// The registration whose instance `.implements(_:)` serves, when that is what mismatched.
    package let servedFor: ServiceKey?

    package init(expected: any Any.Type, actual: any Any.Type, servedFor: ServiceKey? = nil) {
        self.expected = expected
        self.actual = actual
        self.servedFor = servedFor
    }
}
