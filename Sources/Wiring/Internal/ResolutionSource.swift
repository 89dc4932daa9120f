/// Where a resolution finds registrations and keeps the instances of stored scopes. `Container`
/// is one; the test support's `TestContainer` is another that layers overrides on a base.
package protocol ResolutionSource: AnyObject, Resolver {
    /// The registration for `key` and the cache its stored-scope instances live in, as the
    /// running call, whose environment is `call`, sees them (`nil`: as they are now).
    func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup?
    /// Every registration visible from here, in registration order (parents' first), each key once.
    func visibleRegistrations(includingParents: Bool) -> [Lookup]
    /// Where instances of unregistered (`Injectable`) types live, for the running call whose
    /// environment is `call` (`nil`: as things are now).
    func implicitCache(for call: ResolutionEnvironment?) -> any InstanceCache
    /// What a new top-level call from here resolves in (see ``ResolutionEnvironment``).
    func makeEnvironment() -> ResolutionEnvironment
    /// Drops the instances this source keeps for `scope`, as `resetScope(_:)` does, for a
    /// `ScopeResetter` it handed out.
    func resetKeptInstances(of scope: Scope)
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
    /// The box stored for `entry`, for a step that `observer` follows. A store may keep an
    /// instance it does not hand out (a test container's layer, whose instance an override made
    /// stale): it gives `nil`, and may tell the observer why. By default, `cachedInstance(for:)`.
    func cachedInstance(for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?) -> AnyObject?
    /// Publishes `entry`'s instance: from now on, every resolution finds it.
    func store(_ instance: AnyObject, for entry: RegistrationEntry)
    /// Publishes `entry`'s instance, made by a step that `observer` follows. A store that keeps
    /// a note beside each instance (a test container's layers) notes there what the observer
    /// knows of how it was made. By default, `store(_:for:)`.
    func store(_ instance: AnyObject, for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?)
    /// The object instances are stored in, which identifies them while one is made (see
    /// `Creations`); the cache itself unless it forwards to another.
    var creationStore: AnyObject { get }
}

extension InstanceCache {
    package var creationStore: AnyObject { self }

    package func cachedInstance(for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?) -> AnyObject? {
        cachedInstance(for: entry)
    }

    package func store(_ instance: AnyObject, for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?) {
        store(instance, for: entry)
    }
}

extension ResolutionSource {
    package func registrations(ofType serviceType: any Any.Type) -> [Lookup] {
        let identifier = ObjectIdentifier(serviceType)
        return visibleRegistrations(includingParents: true).filter { $0.entry.key.typeIdentifier == identifier }
    }
}
