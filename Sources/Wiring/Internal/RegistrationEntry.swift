/// One registration as the container stores it. Entries never change: a change of options
/// (`.scope(_:)`, `.initCompleted`) replaces the entry with an updated copy under the same `id`.
package class RegistrationEntry: @unchecked Sendable {
    /// The type the entry's factory makes: `Service` for a `TypedEntry<Service>`, which every
    /// entry is.
    package var madeType: any Any.Type { Never.self }

    package typealias Hook = @Sendable (any Resolver, Any) throws -> Void

    /// What `.scope(_:)`, `.initCompleted`, `.eager()` and autowiring set.
    package struct Options: Sendable {
        package var scope: Scope
        package var hooks: [Hook] = []
        /// Known without running the factory: the parameters of an autowired initializer.
        package var dependencies: [Dependency]?
        package var isEager = false
        /// The module that made the registration, when a module did.
        package var module: ModuleOrigin?
        /// Whether a test container refuses to run the factory (see `Registration.liveOnly()`).
        package var isLiveOnly = false
        /// Stands in, in a test container, for a registration it refuses to run: a live-only
        /// one, or one a replaced module made. Resolving it throws.
        package var isRefusal = false
        /// Stands in for a registration of an `Injectable` or `Provider` type; shared by all
        /// containers, each of which keeps its own instances.
        package var isImplicit = false
        /// Returns a value made before it was registered (`register(_:instance:)`): what it gives
        /// was not made by the container, so a leak check does not count it.
        package var isReadyInstance = false
    }

    package let key: ServiceKey
    /// Stable for the life of the registration, across option changes; keys instance caches.
    package let id: Int
    /// The `id` of the registration this entry keeps instances for: its own, or, for the entry
    /// a kept scope makes per distinct runtime arguments (see ``ArgumentFactoryEntry``), the
    /// registration's. Dropping a registration's instances drops all of them.
    package let registrationID: Int
    /// How many times the registration's options changed before this copy was made: a store
    /// keeping an instance of an earlier copy lets it go for a later one, never the other way.
    package let version: Int
    package let site: RegistrationSite
    package let options: Options
    // Read on every resolution; kept apart so reading them copies no strings or arrays.
    /// What this registration's scope does with its instances; the step asks it, never the lifetime.
    package let policy: Scope.Policy
    package let hasHooks: Bool
    /// The registered type when it is a class, so that every instance is an object. (One of a
    /// protocol type may be an object too.)
    package let registeredClass: ObjectIdentifier?
    /// The box of the instance the container that owns this registration keeps for it (a
    /// stored scope's), if made: read and written only under that container's lock, which debug
    /// builds check (any lock, until the container adding the registration names its own with
    /// ``guardKeptBox(by:)``). Kept in the entry, not an object of its own: registering then
    /// allocates one object, not two.
    package var keptBox: AnyObject? {
        get {
            checkKeptBoxLocked()
            return storedBox
        }
        set {
            checkKeptBoxLocked()
            storedBox = newValue
        }
    }
    private var storedBox: AnyObject?
    #if DEBUG
    private var keptBoxLock: ObjectIdentifier?
    #endif

    /// Names the lock that guards ``keptBox`` from now on: its container's, which holds it while
    /// adding the registration.
    package func guardKeptBox(by lock: ObjectIdentifier) {
        #if DEBUG
        checkKeptBoxLocked()
        keptBoxLock = lock
        #endif
    }

    private func checkKeptBoxLocked() {
        #if DEBUG
        if let keptBoxLock {
            precondition(LockOrder.holds(keptBoxLock), "a kept instance was read or written without its container's lock")
        } else {
            precondition(LockOrder.holdsAnyLock, "a kept instance was read or written outside any lock")
        }
        #endif
    }

    package var scope: Scope { options.scope }


    package var hooks: [Hook] { options.hooks }

    package init(
        key: __owned ServiceKey, id: Int, site: __owned RegistrationSite, options: __owned Options, registrationID: Int? = nil,
        version: Int = 0
    ) {
        self.id = id
        self.version = version
        self.registrationID = registrationID ?? id
        self.policy = options.scope.lifetime.policy
        self.hasHooks = !options.hooks.isEmpty
        self.registeredClass = key.serviceType is AnyClass ? key.typeIdentifier : nil
        // Last: what the caller handed over is moved in, not copied.
        (self.key, self.site, self.options) = (key, site, options)
    }

    /// A copy with other options (and no kept instance); subclasses keep their factory.
    package func copy(options: __owned Options) -> RegistrationEntry {
        fatalError("RegistrationEntry.copy must be overridden by \(type(of: self))")
    }

    /// A copy with `options`, under the same key and site and numbered `id`, whose factory
    /// throws what `error` gives instead of making anything.
    package func throwing(
        id: Int, options: Options, _ error: @escaping @Sendable (any Resolver) -> any Error
    ) -> RegistrationEntry {
        fatalError("RegistrationEntry.throwing must be overridden by \(type(of: self))")
    }

    /// Resolves this registration in `resolution` without knowing its type statically.
    /// A registration that needs runtime arguments throws `MissingArguments`.
    package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        throw MissingArguments(key: key)
    }

    /// Resolves this registration's key from `source` with `await`, without knowing its type
    /// statically. A registration that needs runtime arguments throws `MissingArguments`.
    nonisolated(nonsending)
    package func resolveErasedAsync(from source: any ResolutionSource) async throws -> Any {
        throw MissingArguments(key: key)
    }

    /// Whether the factory is async or isolated to the main actor.
    package var needsAwait: Bool { isolation != nil }

    /// Where the factory must run, when a synchronous resolve cannot run it anywhere.
    package var isolation: FactoryIsolation? { nil }

    /// Where the app's factory runs, for traces and explanations: ``isolation``, unless the
    /// entry only forwards to another registration.
    package var factoryIsolation: FactoryIsolation? { nil }

    /// Why a synchronous resolve cannot run the factory here and now, if it cannot.
    var synchronousResolveError: NeedsAwait? {
        switch isolation {
        case .none: nil
        case .async: NeedsAwait(isMainActor: false)
        case .mainActor: MainQueue.isCurrent ? nil : NeedsAwait(isMainActor: true)
        }
    }

    /// The entries a kept scope made for distinct runtime arguments, whose instances are this
    /// registration's too.
    package var argumentVariants: [RegistrationEntry] { [] }

    /// Whether the scope keeps instances but cannot tell runtime arguments apart (an argument
    /// type is not `Hashable`): it keeps one instance, made with the first call's arguments.
    package var keepsOneInstanceForAllArguments: Bool { false }

    /// The registration this entry keeps instances for: itself, or the one that made this
    /// variant (`nil` once that one is gone).
    package var registration: RegistrationEntry? { self }

    /// Empties the kept boxes of this entry and its variants, returning what they held; called under
    /// the owning container's lock, and released by the caller outside it.
    package func takeKeptInstances() -> [AnyObject] {
        guard policy.keepsInstances else { return [] }
        return ([self] + argumentVariants).compactMap { keeper in
            defer { keeper.keptBox = nil }
            return keeper.keptBox
        }
    }

    /// The entry that keeps the instance for these runtime arguments: this one, unless its
    /// scope keeps an instance per distinct argument values.
    package func variant(for arguments: UnsafeArguments) -> RegistrationEntry { self }

    package static func nextID() -> Int {
        identifiers.withLock { next in
            next += 1
            return next
        }
    }

    private static let identifiers = LockedState(0)
}

/// A registration that makes `Service`s, the type of its key: every entry is one (see
/// `UnsafeResolutionState.make(_:in:as:)`), so a step calls its factory through a virtual method that
/// needs no generic metadata at run time.
package class TypedEntry<Service>: RegistrationEntry, @unchecked Sendable {
    override package var madeType: any Any.Type { Service.self }

    /// Runs the factory with `resolver`, the resolution's (and the resolution's pending runtime
    /// arguments, if the registration takes any).
    package func make(_ resolution: Resolution, resolver: any Resolver) throws -> Service {
        fatalError("TypedEntry.make must be overridden by \(type(of: self))")
    }

    override package func throwing(
        id: Int, options: Options, _ error: @escaping @Sendable (any Resolver) -> any Error
    ) -> RegistrationEntry {
        FactoryEntry<Service>(key: key, id: id, site: site, options: options) { throw error($0) }
    }
}

/// A registration whose factory takes no runtime arguments: nearly all of them.
package final class FactoryEntry<Service>: TypedEntry<Service>, @unchecked Sendable {
    package let factory: @Sendable (any Resolver) throws -> Service
    /// Set for factories that must be awaited: async ones and those isolated to the main actor.
    package let isolatedFactory: IsolatedFactory<Service>?

    package init(
        key: ServiceKey, id: Int = RegistrationEntry.nextID(), site: RegistrationSite, options: __owned Options,
        isolatedFactory: IsolatedFactory<Service>? = nil, version: Int = 0,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.factory = factory
        self.isolatedFactory = isolatedFactory
        super.init(key: key, id: id, site: site, options: options, version: version)
    }

    override package func copy(options: __owned Options) -> RegistrationEntry {
        FactoryEntry(
            key: key, id: id, site: site, options: options, isolatedFactory: isolatedFactory, version: version + 1,
            factory: factory)
    }

    override package func make(_ resolution: Resolution, resolver: any Resolver) throws -> Service {
        try factory(resolver)
    }

    override package var isolation: FactoryIsolation? { isolatedFactory?.isolation }

    override package var factoryIsolation: FactoryIsolation? { isolatedFactory?.factoryIsolation }

    nonisolated(nonsending)
    override package func resolveErasedAsync(from source: any ResolutionSource) async throws -> Any {
        try await AsyncResolver(source: source).resolve(Service.self, name: key.name)
    }

    override package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        try resolution.resolve(key, as: Service.self, found: found)
    }
}

/// Lets a non-`Sendable` value cross into a `@Sendable` closure. The container hands instances
/// to any thread by design; what the app shares that way is the app's business.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}

extension UncheckedSendable where Value == Any {
    /// The runtime arguments this tuple holds, as the tuple of their types that they are.
    package func read<each Argument>(as type: (repeat each Argument).Type) throws -> (repeat each Argument) {
        guard let values = value as? (repeat each Argument) else {
            throw TypeMismatch(expected: type, actual: Swift.type(of: value))
        }
        return values
    }
}

/// A registration that needs runtime arguments was asked for without them.
package struct MissingArguments: Error, CustomStringConvertible {
    package let key: ServiceKey

    package var description: String {
        "\(key) needs runtime arguments; resolve it with `resolve(_:arguments:)`"
    }
}
