/// A container's registrations as a resolution reads them: made from the container's tables
/// when a resolution first needs them after a change, and never changed (its tables are a
/// constant), so a resolution looks up in it without locking.
package final class Registry: @unchecked Sendable {
    package let storage: RegistryStorage

    package init(_ storage: RegistryStorage = RegistryStorage()) {
        self.storage = storage
    }

    /// A registry with nothing in it: the environment of a source that answers every lookup itself.
    package static let empty = Registry()

    package subscript(key: ServiceKey) -> RegistrationEntry? { storage[key] }

    /// Every key, in registration order.
    package var order: [ServiceKey] { storage.order }

    package var entries: [RegistrationEntry] { storage.entries }

    /// The registration without runtime arguments of a type and a name.
    package func entry(for type: any Any.Type, name: String?) -> RegistrationEntry? {
        storage.entry(for: type, name: name)
    }
}
