/// A lookup whose entry and cache something else keeps alive for the whole step: passing it
/// costs no reference counting.
///
/// Invariant: a `Found` lives only inside the step it was made for, while what holds its entry
/// and cache lives: the `Lookup` it came from (`Lookup.withFound` holds it for the step), or the
/// resolution's registry and source (see `UnsafeResolutionState.read`).
package struct Found {
    package let unownedEntry: UnsafeUnownedReference<RegistrationEntry>
    private let unownedCache: UnsafeUnownedCache
    package let origin: Int

    package var entry: RegistrationEntry { unownedEntry.object }
    package var cache: any InstanceCache { unownedCache.value }
    init(entry: UnsafeUnownedReference<RegistrationEntry>, cache: UnsafeUnownedCache, origin: Int = 0) {
        (unownedEntry, unownedCache, self.origin) = (entry, cache, origin)
    }
}

extension Lookup {
    /// Runs `body` with this lookup as a `Found`, holding the lookup until it returns.
    package func withFound<Result>(_ body: (Found) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(Found(entry: .init(entry), cache: .init(cache), origin: origin)) }
    }
}
