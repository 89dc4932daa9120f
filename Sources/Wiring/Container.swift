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
    /// The scope of every registration made here that does not set one with `.scope(_:)`;
    /// registrations that take runtime arguments are `.transient` unless they ask otherwise.
    public let defaultScope: Scope
    private let state: LockedState<ContainerState>
    /// Instances of unregistered (`Injectable`) types, whose entries all containers share.
    let implicitInstances = InstanceStore()
    /// The thread slot's key, read once here rather than on every kept-instance resolve.
    private let threadSlot = ResolutionSlot.currentKey

    /// A container with no registrations.
    ///
    /// ```swift
    /// let container = Container(defaultScope: .container)   // every registration a singleton unless it says otherwise
    /// ```
    /// - Parameters:
    ///   - parent: A container whose registrations this one sees and may replace.
    ///   - defaultScope: The scope of registrations that do not set one; `nil` takes the
    ///     parent's default scope, or `.graph` without a parent.
    ///   - behaviors: Told of every registration this container adds; see ``RegistrationBehavior``.
    public init(parent: Container? = nil, defaultScope: Scope? = nil, behaviors: [any RegistrationBehavior] = []) {
        self.parent = parent
        self.defaultScope = defaultScope ?? parent?.defaultScope ?? .graph
        state = LockedState(ContainerState(behaviors: behaviors), rank: .container)
    }

    /// A container built from modules, applied in order: a later registration of the same key
    /// wins. Once all have registered, each module's ``Module/loaded(resolver:)`` runs.
    /// - Parameters:
    ///   - parent: A container whose registrations this one sees.
    ///   - defaultScope: The scope of registrations that do not set one; `nil` takes the
    ///     parent's default scope, or `.graph` without a parent.
    ///   - behaviors: Told of every registration this container adds, the modules' included.
    ///   - modules: The modules whose registrations to add.
    public convenience init(
        parent: Container? = nil, defaultScope: Scope? = nil, behaviors: [any RegistrationBehavior] = [],
        modules: [any Module]
    ) {
        self.init(parent: parent, defaultScope: defaultScope, behaviors: behaviors)
        apply(modules)
    }

    /// Adds the registrations of each module, in order (later registrations of a key replace
    /// earlier ones), then calls each module's ``Module/loaded(resolver:)``, in the same order,
    /// once every one of them has registered.
    public func apply(_ modules: [any Module]) {
        for module in modules {
            let origin = ModuleOrigin(module)
            state.withLock { $0.appliedModules.append(origin) }
            Self.$registering.withValue(Registering(module: origin, isLiveOnly: module.isLiveOnly)) {
                module.register(in: self)
            }
        }
        for module in modules {
            module.loaded(resolver: self)
        }
    }

    // MARK: Resolving

    /// Resolves the registration for a type and name, here or in a parent, without runtime
    /// arguments; an instance its scope keeps here is returned after one lock and one lookup.
    ///
    /// The lock that finds the entry asks the step's first question, what the scope's store
    /// keeps (`Scope.Policy.keptObject`), when no resolution runs on the thread: an instance kept
    /// is then all the step would give. Inside a factory, the call goes through the step, which
    /// tells the running resolution's observer that the factory bypassed its resolver.
    public func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        // Captured as an existential: the generic metatype kept the lock's closure from inlining.
        let type: any Any.Type = serviceType
        // One lock for the entry, its kept instance and the registry the resolution then uses.
        let threadSlot = threadSlot
        var entry: RegistrationEntry?
        let found = state.withLock { state -> KeptOrRegistry in
            entry = state.registry.entry(for: type, name: name)
            if let found = entry, let kept = found.policy.keptObject(found.keptBox),
                !ResolutionSlot.isRunning(key: threadSlot)
            {
                return .kept(kept, weakly: found.policy.holdsWeakly)
            }
            return .registry(state.sharedRegistry)
        }
        switch consume found {
        case .kept(let kept, let weakly):
            guard weakly else { return keptValue(kept, as: serviceType) }
            let key = ServiceKey(serviceType, name: name)
            return try weaklyKeptValue(kept, as: serviceType, key: key, path: [key])
        case .registry(let read):
            return try Resolution.run(from: self, in: ResolutionEnvironment(source: self, registry: read, store: self)) {
                try $0.resolve(ServiceKey(serviceType, name: name), as: serviceType, registered: entry)
            }
        }
    }

    /// What the lock of a resolve found: the instance the entry's store keeps (see
    /// `Scope.Policy.keptObject`), or the registry to resolve in. (A pair of optionals left a `nil`
    /// to release on every cached resolve.)
    private enum KeptOrRegistry {
        case kept(AnyObject, weakly: Bool)
        case registry(Registry)
    }

    /// Resolves the registration whose factory takes these runtime arguments, here or in a
    /// parent; the argument types are part of the key.
    @inlinable
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        // The key and the tuple are made where the argument types are known: made generically,
        // each is a metadata lookup on every call.
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        var tuple = (repeat each arguments)
        return try resolve(key, as: serviceType, tuple: &tuple)
    }

    /// Resolves `key`, whose runtime arguments `tuple` holds.
    @usableFromInline
    package func resolve<Service, Arguments>(
        _ key: ServiceKey, as serviceType: Service.Type, tuple: inout Arguments
    ) throws -> Service {
        try UnsafeArguments.with(&tuple) { arguments in
            try resolve(key, as: serviceType, arguments: arguments)
        }
    }

    package func resolve<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, arguments: UnsafeArguments
    ) throws -> Service {
        let (registry, entry) = state.withLock { state -> (Registry, RegistrationEntry?) in
            (state.sharedRegistry, state.registry[key])
        }
        return try Resolution.run(from: self, in: ResolutionEnvironment(source: self, registry: registry, store: self)) {
            try $0.resolve(key, as: serviceType, registered: entry, arguments: arguments)
        }
    }

    /// Resolves every registration of a type that takes no runtime arguments, named or not, in
    /// registration order, parents' registrations first.
    public func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try resolveAllTopLevel(serviceType)
    }

    // MARK: Scopes and clean-up

    /// Drops the instances this container keeps for a scope; the next resolution makes new ones.
    ///
    /// Works for custom scopes and for `.container` and `.weak`. Instances kept by a parent
    /// container are the parent's to reset. App code that resets a scope it was given (logging
    /// out) resolves a ``ScopeResetter`` instead, so that in a test it resets the test container.
    /// - Parameters:
    ///   - scope: The scope whose instances to drop.
    ///   - file: Where the reset is made, for a test container that wraps this one; leave the default.
    ///   - line: The line of the reset; leave the default.
    public func resetScope(_ scope: Scope, file: StaticString = #fileID, line: UInt = #line) {
        Self.onScopeReset?(self, scope, RegistrationSite(file, line))
        resetKeptInstances(of: scope)
    }

    /// Drops the instances this container keeps for `scope`.
    package func resetKeptInstances(of scope: Scope) {
        let dropped = state.withLock { state in
            state.takeInstances { $0 == scope }
        }
        let droppedImplicit = implicitInstances.reset(scope)
        // Released here, outside the lock: a deinit may well use the container.
        withExtendedLifetime((dropped, droppedImplicit)) {}
    }

    /// Drops the instance this container keeps for one registration in `scope`, such as
    /// `resetScope(.session, only: ServiceKey(Session.self))`; the next resolution of `key` makes
    /// a new one. Other instances of the scope stay.
    ///
    /// Nothing happens when `key`'s registration here (or its `Injectable` type) is of another
    /// scope. For a type added with `implements(_:)`, pass the key of the registration that makes
    /// the instance: the other type only forwards to it.
    /// - Parameters:
    ///   - scope: The scope whose instance to drop.
    ///   - key: The registration whose instance to drop.
    public func resetScope(_ scope: Scope, only key: ServiceKey) {
        let dropped = state.withLock { state -> [AnyObject] in
            guard let entry = state.registry[key], entry.scope == scope else { return [] }
            return entry.takeKeptInstances()
        }
        var droppedImplicit: [AnyObject] = []
        if let implicit = ImplicitRegistrations.existingEntry(for: key), implicit.scope == scope {
            droppedImplicit = implicitInstances.remove(entryID: implicit.id)
        }
        withExtendedLifetime((dropped, droppedImplicit)) {}
    }

    /// Removes every registration of this container and the instances they made. Its
    /// behaviors stay.
    public func removeAll() {
        let dropped = state.withLock { state in
            defer { state = ContainerState(observers: state.observers, behaviors: state.behaviors) }
            return (state.takeInstances { _ in true }, state)
        }
        let droppedImplicit = implicitInstances.removeAll()
        withExtendedLifetime((dropped, droppedImplicit)) {}
        notify(dropped.1.observers)
    }

    /// The keys registered in this container (not its parents), in registration order.
    public var registeredKeys: [ServiceKey] {
        state.withLock { $0.registry.order }
    }

    // MARK: Storage

    /// The modules applied to this container, in order.
    package var appliedModules: [ModuleOrigin] {
        state.withLock { $0.appliedModules }
    }

    /// Every registration of this container that a later one for its key replaced, in order.
    package var replacedRegistrations: [ReplacedRegistration] {
        state.withLock { $0.replaced }
    }

    package func add<Service>(_ added: RegistrationEntry) -> Registration<Service> {
        var entry = added
        if let registering = Self.registering {
            var options = entry.options
            options.module = registering.module
            options.isLiveOnly = options.isLiveOnly || registering.isLiveOnly
            entry = entry.copy(options: options)
        }
        let lock = state.identity
        let (replaced, observers, behaviors) = state.withLock { state in
            entry.guardKeptBox(by: lock)
            let previous = state.insert(entry)
            if let previous, previous.id != entry.id, !entry.options.isImplicit {
                state.replaced.append(ReplacedRegistration(
                    key: entry.key, replaced: (previous.site, previous.options.module),
                    winner: (entry.site, entry.options.module)))
            }
            return (previous?.takeKeptInstances(), state.observers, state.behaviors)
        }
        withExtendedLifetime(replaced) {}
        notify(observers)
        let registration = Registration<Service>(key: entry.key, id: entry.id, container: self)
        if !behaviors.isEmpty {
            let info = RegistrationInfo(entry)
            for behavior in behaviors {
                behavior.container(self, didRegister: registration, info: info)
            }
        }
        return registration
    }

    /// Replaces the registration `key` and `id` name (unless another replaced it since) with a
    /// copy whose options `update` changed. Not generic: a generic one looks the metadata of
    /// `Registration<Service>` up at run time on every `.scope(_:)`.
    package func updateOptions(key: ServiceKey, id: Int, _ update: (inout RegistrationEntry.Options) -> Void) {
        typealias Changed = ([AnyObject]?, [any RegistrationObserver], RegistrationEntry?, [any RegistrationBehavior])
        let lock = state.identity
        let (dropped, observers, updated, behaviors) = state.withLock { state -> Changed in
            guard let current = state.registry[key], current.id == id else { return (nil, [], nil, []) }
            var options = current.options
            update(&options)
            let updated = current.copy(options: consume options)
            updated.guardKeptBox(by: lock)
            _ = state.insert(updated)
            return (current.takeKeptInstances(), state.observers, updated, state.behaviors)
        }
        withExtendedLifetime(dropped) {}
        notify(observers, updating: updated)
        if let updated, !behaviors.isEmpty {
            let info = RegistrationInfo(updated)
            for behavior in behaviors {
                behavior.container(self, didUpdate: info)
            }
        }
    }

    /// Adds a behavior, told of every registration added to this container from now on (not of
    /// earlier ones, nor of a child container's); see ``RegistrationBehavior``.
    public func addBehavior(_ behavior: any RegistrationBehavior) {
        state.withLock { $0.behaviors.append(behavior) }
    }

    /// Tells `observer` after every change to this container's registrations, outside its lock,
    /// for as long as it is observing: whoever keeps a copy of the registry (a test container,
    /// its layers) knows to take a new one.
    package func observeChanges(_ observer: any RegistrationObserver) {
        // Which observers stopped is asked outside this container's lock: an observer answers
        // under a lock of its own, which may be held while this container's is taken.
        let current = state.withLock { $0.observers }
        let stopped = Set(current.filter { !$0.isObserving }.map(ObjectIdentifier.init))
        state.withLock { state in
            if !stopped.isEmpty { state.observers.removeAll { stopped.contains(ObjectIdentifier($0)) } }
            state.observers.append(observer)
        }
    }

    private func notify(_ observers: [any RegistrationObserver], updating updated: RegistrationEntry? = nil) {
        for observer in observers { observer.registrationsChanged(updating: updated) }
    }

    package var registry: Registry {
        state.withLock { $0.sharedRegistry }
    }
}

extension Container: InstanceCache {
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        state.withLock { _ in entry.keptBox }
    }

    package func store(_ instance: AnyObject, for entry: RegistrationEntry) {
        state.withLock { state in
            // An entry replaced while its instance was being made keeps nothing.
            if let registration = entry.registration, state.registry[entry.key] === registration {
                entry.keptBox = instance
            }
        }
    }
}
