/// A lookup whose entry and cache something else keeps alive for the whole step (the
/// resolution's registry, or the caller's `Lookup`): passing it costs no reference counting.
///
/// Invariant: a `Found` lives only inside the step it was made for, while the `Lookup`, the
/// registry or the container it came from is held by the caller of that step.
package struct Found {
    package let unmanagedEntry: Unmanaged<RegistrationEntry>
    package unowned(unsafe) let cache: any InstanceCache
    package let origin: Int

    package var entry: RegistrationEntry { unmanagedEntry.takeUnretainedValue() }

    @inline(__always)
    init(_ lookup: Lookup) {
        unmanagedEntry = Unmanaged.passUnretained(lookup.entry)
        cache = lookup.cache
        origin = lookup.origin
    }

    /// Copying the cache from one unowned reference to another costs no reference counting.
    @inline(__always)
    init(entry: Unmanaged<RegistrationEntry>, cache: UnownedCache) {
        unmanagedEntry = entry
        self.cache = cache.value
        origin = 0
    }
}

/// An instance cache that something else keeps alive, held without reference counting: a
/// resolution's direct cache, which the caller of the top-level call holds until it returns.
struct UnownedCache {
    unowned(unsafe) let value: any InstanceCache

    @inline(__always)
    init(_ value: any InstanceCache) {
        self.value = value
    }
}

extension Lookup {
    package init(_ found: Found) {
        self.init(entry: found.entry, cache: found.cache, origin: found.origin)
    }
}
