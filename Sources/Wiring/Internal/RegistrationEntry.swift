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
    }

    package let key: ServiceKey
    /// Stable for the life of the registration, across option changes; keys instance caches.
    package let id: Int
    package let site: RegistrationSite
    package let options: Options

    package var scope: Scope { options.scope }
    package var hooks: [Hook] { options.hooks }

    package init(key: ServiceKey, id: Int, site: RegistrationSite, options: Options) {
        self.key = key
        self.id = id
        self.site = site
        self.options = options
    }

    /// A copy with other options; subclasses keep their factory.
    package func copy(options: Options) -> RegistrationEntry {
        fatalError("RegistrationEntry.copy must be overridden by \(type(of: self))")
    }

    /// Resolves this registration in `resolution` without knowing its type statically.
    /// A registration that needs runtime arguments throws `MissingArguments`.
    package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        fatalError("RegistrationEntry.resolveErased must be overridden by \(type(of: self))")
    }

    /// Whether the factory is async or isolated to the main actor.
    package var needsAwait: Bool { false }

    package static func nextID() -> Int {
        identifiers.withLock { next in
            next += 1
            return next
        }
    }

    private static let identifiers = LockedState(0)
}

/// A registration whose factory makes a `Service` from a resolver and runtime arguments.
///
/// A resolution finds an entry by a key built from the same `Service` and argument types, so
/// the entry found for `resolve<Service, each Argument>` is always of exactly this class.
package final class FactoryEntry<Service, each Argument>: RegistrationEntry, @unchecked Sendable {
    package let factory: @Sendable (any Resolver, repeat each Argument) throws -> Service
    /// Set for factories that must be awaited: async ones and those isolated to the main actor.
    package let isolatedFactory: IsolatedFactory<Service>?

    package init(
        key: ServiceKey, id: Int = RegistrationEntry.nextID(), site: RegistrationSite, options: Options,
        isolatedFactory: IsolatedFactory<Service>? = nil,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) {
        self.factory = factory
        self.isolatedFactory = isolatedFactory
        super.init(key: key, id: id, site: site, options: options)
    }

    override package func copy(options: Options) -> RegistrationEntry {
        FactoryEntry(key: key, id: id, site: site, options: options, isolatedFactory: isolatedFactory, factory: factory)
    }

    override package var needsAwait: Bool { isolatedFactory != nil }

    override package func resolveErased(in resolution: Resolution, found: Lookup) throws -> Any {
        guard !key.takesArguments else { throw MissingArguments(key: key) }
        // With no runtime arguments this entry is a `FactoryEntry<Service>`, as `resolve` expects.
        return try resolution.resolve(key, as: Service.self, found: found)
    }
}

/// A resolved instance kept by a scope. Not generic, so reading it back needs no generic
/// metadata lookup on the hot path; read it as the `Service` type it was stored under.
package final class InstanceBox: @unchecked Sendable {
    private let storage: UnsafeMutableRawPointer
    private let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

    package init<Service>(_ value: Service) {
        let typed = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        typed.initialize(to: value)
        storage = UnsafeMutableRawPointer(typed)
        destroy = { raw in
            let typed = raw.assumingMemoryBound(to: Service.self)
            typed.deinitialize(count: 1)
            typed.deallocate()
        }
    }

    deinit {
        destroy(storage)
    }

    /// The value, which must have been stored as a `Service`.
    @inline(__always)
    package func value<Service>(as serviceType: Service.Type) -> Service {
        storage.assumingMemoryBound(to: Service.self).pointee
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
