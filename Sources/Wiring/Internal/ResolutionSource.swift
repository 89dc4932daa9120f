/// Where a resolution finds registrations and keeps the instances of stored scopes. `Container`
/// is one; the test support's `TestContainer` is another that layers overrides on a base.
package protocol ResolutionSource: AnyObject, Resolver {
    /// What a top-level call from here resolves in: built once per call, and held by the call's
    /// resolution until it ends.
    func makeEnvironment() -> ResolutionEnvironment
    /// The registration for `key` and the cache its stored-scope instances live in, as
    /// `resolution` sees them (`nil`: as they are now). The engine asks the environment's
    /// registry first, and the source only for what that registry does not hold.
    func lookup(_ key: ServiceKey, in resolution: Resolution?) -> Lookup?
    /// Every registration visible from here, in registration order (parents' first), each key once.
    func visibleRegistrations(includingParents: Bool) -> [Lookup]
    /// Where instances of unregistered (`Injectable`) types live.
    var implicitCache: any InstanceCache { get }
    /// Drops the instances this source keeps for `scope`, as `resetScope(_:)` does, for a
    /// `ScopeResetter` it handed out.
    func resetKeptInstances(of scope: Scope)
}

/// What one top-level call resolves in: its source, the source's own registrations as the call
/// first saw them, where their kept instances live, and who follows the steps. Every resolve
/// nested in the call (through a factory's resolver, a `Provider`, a `Lazy`, an async turn)
/// continues it; a call that reaches another source (a child container, a container a factory
/// captured) gets that source's environment, below the same path.
package struct ResolutionEnvironment: Sendable {
    /// Where the call started, and where a resolver kept past the call starts new ones.
    package let source: any ResolutionSource
    /// The registrations looked up first: every key found here keeps its instances in `store`.
    package let registry: Registry
    /// Where the kept instances of `registry`'s entries live.
    package let store: any InstanceCache
    /// Told of every step, if anything follows them.
    package let observer: (any ResolutionObserver)?

    /// - Parameters:
    ///   - source: Where the call starts.
    ///   - registry: The registrations looked up first (``Registry/empty`` to ask the source for each).
    ///   - store: Where their kept instances live.
    ///   - observer: Told of every step, if anything is.
    package init(
        source: any ResolutionSource, registry: Registry, store: any InstanceCache, observer: (any ResolutionObserver)?
    ) {
        self.source = source
        self.registry = registry
        self.store = store
        self.observer = observer
    }

    /// This environment, with its steps told to `observer` instead.
    func observed(by observer: any ResolutionObserver) -> ResolutionEnvironment {
        ResolutionEnvironment(source: source, registry: registry, store: store, observer: observer)
    }
}

extension ResolutionSource {
    package func lookup(_ key: ServiceKey) -> Lookup? {
        lookup(key, in: nil)
    }
}

/// A registration found for a key, with the cache that owns its stored-scope instances.
package struct Lookup {
    package let entry: RegistrationEntry
    /// Where the registration's kept instances live.
    package let cache: any InstanceCache
    /// Where the source found the entry, in its own numbering: 0 for a container's own
    /// registrations; a test container numbers its override layers.
    package let origin: Int

    package init(entry: RegistrationEntry, cache: any InstanceCache, origin: Int = 0) {
        self.entry = entry
        self.cache = cache
        self.origin = origin
    }
}

/// Keeps the instances of `.container`, `.weak` and custom scopes: a container, a test
/// container's layers, the verification sandbox and the scope probe each are one. The resolution
/// step decides when to look, make and store (see `Resolution.resolveKept`); a store only keeps.
///
/// A store must give back for an entry only what it was given for that same registration in the
/// same scope: after `.scope(_:)` changes, what it kept before is not the entry's any more.
package protocol InstanceCache: AnyObject, Sendable {
    /// The box stored for `entry` (an `InstanceBox`, or a `WeakInstanceBox` for `.weak`), if any.
    func cachedInstance(for entry: RegistrationEntry) -> AnyObject?
    /// Publishes `entry`'s instance: from now on, every resolution finds it.
    func store(_ instance: AnyObject, for entry: RegistrationEntry)
    /// The object instances are stored in, which identifies them while one is made (see
    /// `Creations`); the cache itself unless it forwards to another.
    var creationStore: AnyObject { get }
}

extension InstanceCache {
    package var creationStore: AnyObject { self }
}

extension ResolutionSource {
    package func registrations(ofType serviceType: any Any.Type) -> [Lookup] {
        let identifier = ObjectIdentifier(serviceType)
        return visibleRegistrations(includingParents: true).filter { $0.entry.key.typeIdentifier == identifier }
    }
}
