/// Registrations and the instances they made, safe to use from any thread or task.
///
/// ```swift
/// let container = Container()
/// container.register(Animal.self) { _ in Cat() }
/// container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
///     .scope(.container)
/// let owner = try container.resolve(Owner.self)
/// ```
///
/// A child container (`Container(parent:)`) sees its parent's registrations and can replace
/// them for itself; a parent's factory run for a child resolves its dependencies from the child.
public final class Container: Resolver, Sendable {
    /// The container whose registrations this one falls back to.
    public let parent: Container?
    package let creationLock: RecursiveLock
    private let state = LockedState(Registry())

    /// A container with no registrations.
    /// - Parameter parent: A container whose registrations this one sees and may replace.
    public init(parent: Container? = nil) {
        self.parent = parent
        // One lock for the whole tree: a parent's singleton may be made for a child and the
        // other way round, and two locks taken in both orders could deadlock.
        self.creationLock = parent?.creationLock ?? RecursiveLock()
    }

    /// A container built from modules, applied in order: a later registration of the same key wins.
    /// - Parameters:
    ///   - parent: A container whose registrations this one sees.
    ///   - modules: The modules whose registrations to add.
    public convenience init(parent: Container? = nil, modules: [any Module]) {
        self.init(parent: parent)
        apply(modules)
    }

    /// Adds the registrations of each module, in order; later registrations of a key replace earlier ones.
    public func apply(_ modules: [any Module]) {
        for module in modules {
            module.register(in: self)
        }
    }

    // MARK: Registering

    /// Registers a factory for a type, optionally named, taking any number of runtime arguments.
    ///
    /// Registering a key again replaces the earlier registration (the last one wins).
    ///
    /// ```swift
    /// container.register(Animal.self) { _ in Cat() }
    /// container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
    /// container.register(Animal.self) { (_, name: String) in Cat(name: name) }
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to register; what `resolve` asks for.
    ///   - name: Tells registrations of the same type apart.
    ///   - factory: Makes the instance from a resolver bound to the resolution in progress and
    ///     the runtime arguments, whose types become part of the key.
    /// - Returns: The registration, to set its scope and hooks. Its scope is `.graph`, or
    ///   `.transient` when the factory takes runtime arguments (a shared instance would ignore
    ///   the arguments of later calls).
    @discardableResult
    public func register<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        return add(
            FactoryEntry(
                key: key, site: RegistrationSite(file, line),
                options: .init(scope: key.takesArguments ? .transient : .graph), factory: factory))
    }

    /// Registers a ready-made instance, shared like a `.container` singleton.
    /// - Parameters:
    ///   - serviceType: The type to register it as.
    ///   - name: Tells registrations of the same type apart.
    ///   - instance: The value every resolution returns.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        let value = UncheckedSendable(instance)
        return register(serviceType, name: name, file: file, line: line) { _ in value.value }
            .scope(.container)
    }

    // MARK: Resolving

    public func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        let key = ServiceKey(serviceType, name: name)
        let found = lookup(key)
        if let found, let box = found.cached, found.entry.scope.lifetime == .container || found.entry.scope.lifetime == .custom {
            return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
        }
        return try resolveTopLevel(key, as: serviceType, found: found)
    }

    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        return try resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
    }

    public func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try resolveAllTopLevel(serviceType)
    }

    // MARK: Scopes and clean-up

    /// Drops the instances this container keeps for a scope; the next resolution makes new ones.
    ///
    /// Works for custom scopes and for `.container` and `.weak`. Instances kept by a parent
    /// container are the parent's to reset.
    /// - Parameter scope: The scope whose instances to drop.
    public func resetScope(_ scope: Scope) {
        let dropped = state.withLock { registry in
            let ids = registry.instances.filter { $0.value.scope == scope }.map(\.key)
            return ids.compactMap { registry.instances.removeValue(forKey: $0) }
        }
        // Released here, outside the lock: a deinit may well use the container.
        withExtendedLifetime(dropped) {}
    }

    /// Removes every registration of this container and the instances they made.
    public func removeAll() {
        let dropped = state.withLock { registry in
            defer { registry = Registry() }
            return registry
        }
        withExtendedLifetime(dropped) {}
    }

    /// The keys registered in this container (not its parents), in registration order.
    public var registeredKeys: [ServiceKey] {
        state.withLock { $0.order }
    }

    // MARK: Storage

    private struct Registry {
        var entries: [ServiceKey: RegistrationEntry] = [:]
        var order: [ServiceKey] = []
        var instances: [Int: StoredInstance] = [:]
    }

    private struct StoredInstance {
        let scope: Scope
        let object: AnyObject
    }

    package func add<Service>(_ entry: RegistrationEntry) -> Registration<Service> {
        let replaced = state.withLock { registry in
            let previous = registry.entries.updateValue(entry, forKey: entry.key)
            if let previous {
                registry.order.removeAll { $0 == entry.key }
                registry.order.append(entry.key)
                return registry.instances.removeValue(forKey: previous.id)
            }
            registry.order.append(entry.key)
            return nil
        }
        withExtendedLifetime(replaced) {}
        return Registration(key: entry.key, id: entry.id, container: self)
    }

    package func updateOptions<Service>(
        _ registration: Registration<Service>, _ update: (inout RegistrationEntry.Options) -> Void
    ) {
        let dropped = state.withLock { registry -> StoredInstance? in
            guard let current = registry.entries[registration.key], current.id == registration.id else { return nil }
            var options = current.options
            update(&options)
            registry.entries[registration.key] = current.copy(options: options)
            return registry.instances.removeValue(forKey: current.id)
        }
        withExtendedLifetime(dropped) {}
    }
}

extension Container: ResolutionSource {
    package func lookup(_ key: ServiceKey) -> Lookup? {
        var container = self
        while true {
            let found = container.state.withLock { registry -> Lookup? in
                guard let entry = registry.entries[key] else { return nil }
                let cached = entry.scope.isStoredInContainer ? registry.instances[entry.id]?.object : nil
                return Lookup(entry: entry, cache: container, cached: cached)
            }
            if let found { return found }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        let own = state.withLock { registry in
            registry.order.compactMap { key in registry.entries[key].map { Lookup(entry: $0, cache: self, cached: nil) } }
        }
        guard includingParents, let parent else { return own }
        let shadowed = Set(own.map(\.entry.key))
        return parent.visibleRegistrations(includingParents: true).filter { !shadowed.contains($0.entry.key) } + own
    }

    package func makeResolution() -> Resolution {
        Resolution(source: self)
    }

    package var implicitCache: any InstanceCache { self }
}

extension Container: InstanceCache {
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        state.withLock { $0.instances[entry.id]?.object }
    }

    package func store(_ instance: AnyObject, for entry: RegistrationEntry) {
        state.withLock { registry in
            // An entry replaced while its instance was being made keeps nothing.
            if let current = registry.entries[entry.key], current.id != entry.id { return }
            registry.instances[entry.id] = StoredInstance(scope: entry.scope, object: instance)
        }
    }
}
