/// The tables of a ``Registry``: a container changes its own copy under its lock, and a
/// resolution reads a registry's, which never changes (`Registry` holds it in a constant).
///
/// Invariant: the unnamed table refers to its entries unretained; `keyed` holds every one of
/// them for as long as the table does: `insert` changes both, and they are copied together.
/// A reference handed out is valid while the caller keeps these tables alive.
package struct UnsafeRegistryStorage {
    /// Unnamed registrations, the usual case, by type and argument types alone.
    private var unnamed = TypeTable<UnsafeUnownedReference<RegistrationEntry>>()
    /// Every entry, unnamed ones included.
    private var keyed: [ServiceKey: RegistrationEntry] = [:]
    /// Every key, in registration order.
    package private(set) var order: [ServiceKey] = []

    package init() {}

    package subscript(key: ServiceKey) -> RegistrationEntry? { keyed[key] }

    /// The unnamed registration without runtime arguments of a type.
    package func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamed[TypeTableKey(type: type, arguments: nil)]
    }

    /// The registration for `key`.
    package func unownedEntry(for key: ServiceKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        key.name == nil ? unnamed[TypeTableKey(key)] : keyed[key].map { UnsafeUnownedReference($0) }
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package mutating func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        let previous = keyed.updateValue(entry, forKey: entry.key)
        if entry.key.name == nil { unnamed[TypeTableKey(entry.key)] = UnsafeUnownedReference(entry) }
        if let previous, previous.id != entry.id { order.removeAll { $0 == entry.key } }
        if previous?.id != entry.id { order.append(entry.key) }
        return previous
    }
}
