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
        container.updateEntry(self) { $0.copy(scope: scope, hooks: $0.hooks) }
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
        container.updateEntry(self) { $0.copy(scope: $0.scope, hooks: $0.hooks + [erased]) }
        return self
    }
}
