/// Where a resolution finds registrations and keeps the instances of stored scopes. `Container`
/// is one; the test support's `TestContainer` is another that layers overrides on a base.
package protocol ResolutionSource: AnyObject, Resolver {
    /// The registration for `key` and the cache its stored-scope instances live in, as
    /// `resolution` sees them (`nil`: as they are now).
    func lookup(_ key: ServiceKey, in resolution: Resolution?) -> Lookup?
    /// Every registration visible from here, in registration order (parents' first), each key once.
    func visibleRegistrations(includingParents: Bool) -> [Lookup]
    /// Where instances of unregistered (`Injectable`) types live.
    var implicitCache: any InstanceCache { get }
    /// What follows the steps of a new top-level resolution from here; `nil` when nobody does.
    func makeObserver() -> ObserverReference?
}

extension ResolutionSource {
    package func lookup(_ key: ServiceKey) -> Lookup? {
        lookup(key, in: nil)
    }
}

/// A registration found for a key, with the cache that owns its stored-scope instances.
package struct Lookup {
    package let entry: RegistrationEntry
    /// A container (or test container) that the resolution's source keeps alive, so holding
    /// it without reference counting is safe and saves two atomic operations per step.
    package unowned(unsafe) let cache: any InstanceCache
    /// Where the source found the entry, in its own numbering: 0 for a container's own
    /// registrations; a test container numbers its override layers.
    package let origin: Int

    package init(entry: RegistrationEntry, cache: any InstanceCache, origin: Int = 0) {
        self.entry = entry
        self.cache = cache
        self.origin = origin
    }
}

/// Keeps the instances of `.container`, `.weak` and custom scopes.
package protocol InstanceCache: AnyObject, Sendable {
    func cachedInstance(for entry: RegistrationEntry) -> AnyObject?
    func store(_ instance: AnyObject, for entry: RegistrationEntry)
    /// Held while a stored-scope instance is made, so each is made exactly once.
    var creationLock: RecursiveLock { get }
}

extension ResolutionSource {
    package func registrations(ofType serviceType: any Any.Type) -> [Lookup] {
        let identifier = ObjectIdentifier(serviceType)
        return visibleRegistrations(includingParents: true).filter { $0.entry.key.typeIdentifier == identifier }
    }
}
