/// A container's registrations as a resolution reads them: made from the container's tables
/// when a resolution first needs them after a change, and never changed (its tables are a
/// constant), so a resolution looks up in it without locking.
package final class Registry: @unchecked Sendable {
    package let storage: RegistryStorage

    package init(_ storage: RegistryStorage = RegistryStorage()) {
        self.storage = storage
    }

    package subscript(key: ServiceKey) -> RegistrationEntry? { storage[key] }

    /// Every key, in registration order.
    package var order: [ServiceKey] { storage.order }

    package var entries: [RegistrationEntry] { storage.entries }

    /// The registration without runtime arguments of a type and a name; this registry holds it.
    package func entry(for type: any Any.Type, name: String?) -> RegistrationEntry? {
        name == nil ? storage.plainEntry(for: ObjectIdentifier(type)) : storage.entry(for: type, name: name)
    }
}

extension RegistryStorage {
    /// The registration for `key`.
    package subscript(key: ServiceKey) -> RegistrationEntry? {
        entry(for: key.serviceType, name: key.name, arguments: key.argumentList)
    }

    /// Every entry, in registration order.
    package var entries: [RegistrationEntry] { order.compactMap { self[$0] } }
}
