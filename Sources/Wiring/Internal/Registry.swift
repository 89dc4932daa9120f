/// A container's registrations as a resolution reads them: made from the container's tables
/// when a resolution first needs them after a change, and never changed (its tables are a
/// constant), so a resolution looks up in it without locking.
package final class Registry: @unchecked Sendable {
    package let storage: UnsafeRegistryStorage

    package init(_ storage: UnsafeRegistryStorage = UnsafeRegistryStorage()) {
        self.storage = storage
    }

    package subscript(key: ServiceKey) -> RegistrationEntry? { storage[key] }

    /// Every key, in registration order.
    package var order: [ServiceKey] { storage.order }

    package var entries: [RegistrationEntry] { storage.entries }

    /// See ``UnsafeRegistryStorage/plainEntry(for:)``; this registry holds the entry.
    package func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        storage.plainEntry(for: type)
    }

    /// See ``UnsafeRegistryStorage/unownedEntry(for:)``; this registry holds the entry.
    package func unownedEntry(for key: ServiceKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        storage.unownedEntry(for: key)
    }
}

extension UnsafeRegistryStorage {
    /// Every entry, in registration order.
    package var entries: [RegistrationEntry] { order.compactMap { self[$0] } }
}
