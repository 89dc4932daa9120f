/// One registration as the container stores it. Entries never change: a change of options
/// (`.scope(_:)`, `.initCompleted`) replaces the entry with an updated copy under the same `id`.
package class RegistrationEntry: @unchecked Sendable {
    package typealias Hook = @Sendable (any Resolver, Any) throws -> Void

    /// What `.scope(_:)`, `.initCompleted`, `.eager()` and autowiring set.
    package struct Options: Sendable {
        package var scope: Scope
        package var hooks: [Hook] = []
        /// Known without running the factory: the parameters of an autowired initializer.
        package var dependencies: [Dependency]?
        package var isEager = false
        /// Stands in for a registration of an `Injectable` or `Provider` type; shared by all
        /// containers, each of which keeps its own instances.
        package var isImplicit = false
    }

    package let key: ServiceKey
    /// Stable for the life of the registration, across option changes; keys instance caches.
    package let id: Int
    package let site: RegistrationSite
    package let options: Options
    // Read on every resolution; kept apart so reading them copies no strings or arrays.
    /// What this registration's scope does with its instances; the step asks it, never the lifetime.
    package let policy: Scope.Policy
    package let hasHooks: Bool
    /// The registered type when it is a class, so that every instance is an object. (One of a
    /// protocol type may be an object too.)
    package let registeredClass: ObjectIdentifier?
    /// Where the container that owns this registration keeps its stored-scope instance.
    /// Guarded by that container's lock.
    package let slot = UnsafeInstanceSlot()

    package var scope: Scope { options.scope }


    /// The instance a `.container` or custom scope keeps for this registration, if made yet;
    /// read under the owning container's lock.
    @inline(__always)
    package var keptInstance: AnyObject? {
        policy.keepsInstances && !policy.holdsWeakly ? slot.box : nil
    }
    package var hooks: [Hook] { options.hooks }

    package init(key: ServiceKey, id: Int, site: RegistrationSite, options: Options) {
        self.key = key
        self.id = id
        self.site = site
        self.options = options
        self.policy = options.scope.lifetime.policy
        self.hasHooks = !options.hooks.isEmpty
        self.registeredClass = key.serviceType is AnyClass ? key.typeIdentifier : nil
    }

    /// A copy with other options (and an empty slot); subclasses keep their factory.
    package func copy(options: Options) -> RegistrationEntry {
        fatalError("RegistrationEntry.copy must be overridden by \(type(of: self))")
    }

    /// Runs the factory with the resolution as its resolver (and the resolution's pending
    /// runtime arguments, if the registration takes any), moving the instance into `slot`,
    /// which must be uninitialized memory for the registered type.
    package func make(_ resolution: Resolution, into slot: UnsafeScratchStack.Slot) throws {
        fatalError("RegistrationEntry.make must be overridden by \(type(of: self))")
    }

    /// Resolves this registration in `resolution` without knowing its type statically.
    /// A registration that needs runtime arguments throws `MissingArguments`.
    package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        throw MissingArguments(key: key)
    }

    /// Resolves this registration's key from `source` with `await`, without knowing its type
    /// statically. A registration that needs runtime arguments throws `MissingArguments`.
    package func resolveErasedAsync(from source: any ResolutionSource) async throws -> Any {
        throw MissingArguments(key: key)
    }

    /// Whether the factory is async or isolated to the main actor.
    package var needsAwait: Bool { false }

    /// Why a synchronous resolve cannot run the factory here and now, if it cannot.
    var synchronousResolveError: NeedsAwait? { nil }

    package static func nextID() -> Int {
        identifiers.withLock { next in
            next += 1
            return next
        }
    }

    private static let identifiers = LockedState(0)
}

/// A registration whose factory takes no runtime arguments: nearly all of them, so a resolution
/// calls it through a virtual method that needs no generic metadata at run time.
package final class FactoryEntry<Service>: RegistrationEntry, @unchecked Sendable {
    package let factory: @Sendable (any Resolver) throws -> Service
    /// Set for factories that must be awaited: async ones and those isolated to the main actor.
    package let isolatedFactory: IsolatedFactory<Service>?

    package init(
        key: ServiceKey, id: Int = RegistrationEntry.nextID(), site: RegistrationSite, options: Options,
        isolatedFactory: IsolatedFactory<Service>? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.factory = factory
        self.isolatedFactory = isolatedFactory
        super.init(key: key, id: id, site: site, options: options)
    }

    override package func copy(options: Options) -> RegistrationEntry {
        FactoryEntry(key: key, id: id, site: site, options: options, isolatedFactory: isolatedFactory, factory: factory)
    }

    override package func make(_ resolution: Resolution, into slot: UnsafeScratchStack.Slot) throws {
        slot.initialize(to: try resolution.withResolver(factory))
    }

    override package var needsAwait: Bool { isolatedFactory != nil }

    override package func resolveErasedAsync(from source: any ResolutionSource) async throws -> Any {
        try await AsyncResolver(source: source).resolve(Service.self, name: key.name)
    }

    override var synchronousResolveError: NeedsAwait? {
        switch isolatedFactory {
        case .none: nil
        case .async: NeedsAwait(isMainActor: false)
        case .mainActor: MainQueue.isCurrent ? nil : NeedsAwait(isMainActor: true)
        }
    }

    override package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        try resolution.resolve(key, as: Service.self, found: found)
    }
}

/// A registration whose factory takes runtime arguments. The key includes their types, so the
/// entry found for `resolve<Service, each Argument>` is always of exactly this class.
package final class ArgumentFactoryEntry<Service>: RegistrationEntry, @unchecked Sendable {
    /// Calls the registered factory with the arguments it reads from a tuple of their types.
    package let factory: @Sendable (any Resolver, UnsafeArguments) throws -> Service

    package init(
        key: ServiceKey, id: Int = RegistrationEntry.nextID(), site: RegistrationSite, options: Options,
        factory: @escaping @Sendable (any Resolver, UnsafeArguments) throws -> Service
    ) {
        self.factory = factory
        super.init(key: key, id: id, site: site, options: options)
    }

    override package func copy(options: Options) -> RegistrationEntry {
        ArgumentFactoryEntry(key: key, id: id, site: site, options: options, factory: factory)
    }

    override package func make(_ resolution: Resolution, into slot: UnsafeScratchStack.Slot) throws {
        guard let arguments = resolution.pendingArguments else { throw MissingArguments(key: key) }
        resolution.pendingArguments = nil
        slot.initialize(to: try resolution.withResolver { try factory($0, arguments) })
    }
}

/// An instance of `.weak` scope: kept only while someone else holds it.
package final class WeakInstanceBox: @unchecked Sendable {
    package weak var object: AnyObject?

    package init(_ object: AnyObject) {
        self.object = object
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

/// A registration that needs runtime arguments was asked for without them.
package struct MissingArguments: Error, CustomStringConvertible {
    package let key: ServiceKey

    package var description: String {
        "\(key) needs runtime arguments; resolve it with `resolve(_:arguments:)`"
    }
}
