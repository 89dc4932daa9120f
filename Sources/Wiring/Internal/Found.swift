/// A lookup whose entry and cache something else keeps alive for the whole step (the
/// resolution's registry, or the caller's `Lookup`): passing it costs no reference counting.
///
/// A `Found` lives only inside the step it was made for, while the `Lookup`, the registry or
/// the container it came from is held by the caller of that step.
package struct Found {
    package let unownedEntry: UnsafeUnownedReference<RegistrationEntry>
    private let unownedCache: UnsafeUnownedCache
    package let origin: Int

    package var entry: RegistrationEntry { unownedEntry.object }
    package var cache: any InstanceCache { unownedCache.value }

    init(_ lookup: Lookup) {
        unownedEntry = UnsafeUnownedReference(lookup.entry)
        unownedCache = UnsafeUnownedCache(lookup.cache)
        origin = lookup.origin
    }

    init(entry: UnsafeUnownedReference<RegistrationEntry>, cache: UnsafeUnownedCache) {
        unownedEntry = entry
        unownedCache = cache
        origin = 0
    }
}

extension Lookup {
    package init(_ found: Found) {
        self.init(entry: found.entry, cache: found.cache, origin: found.origin)
    }
}
