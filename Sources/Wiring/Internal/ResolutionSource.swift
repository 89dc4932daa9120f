/// Where a resolution finds registrations and keeps the instances of stored scopes. `Container`
/// is one; the test support's `TestContainer` is another that layers overrides on a base.
package protocol ResolutionSource: AnyObject, Resolver {
    /// The registration for `key` and the cache its stored-scope instances live in.
    func lookup(_ key: ServiceKey) -> Lookup?
    /// Every registration visible from here, in registration order (parents' first), each key once.
    func visibleRegistrations(includingParents: Bool) -> [Lookup]
    /// Where instances of unregistered (`Injectable`) types live.
    var implicitCache: any InstanceCache { get }
    /// A fresh resolution for one top-level request.
    func makeResolution() -> Resolution
}

/// A registration found for a key, with the cache that owns its stored-scope instances.
package struct Lookup {
    package let entry: RegistrationEntry
    package let cache: any InstanceCache
    /// The cached instance, when the lookup could read it cheaply under the same lock.
    package let cached: AnyObject?

    package init(entry: RegistrationEntry, cache: any InstanceCache, cached: AnyObject?) {
        self.entry = entry
        self.cache = cache
        self.cached = cached
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
