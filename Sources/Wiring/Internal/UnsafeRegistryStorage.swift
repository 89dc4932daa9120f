/// The tables of a ``Registry``: a container changes its own copy under its lock, and a
/// resolution reads a registry's, which never changes. Invariant: the type tables refer to their
/// entries unretained and `keyed` holds every one of them (`insert` changes all; they are copied
/// together); a reference handed out is valid while the caller keeps these tables alive.
package struct UnsafeRegistryStorage {
    /// Unnamed registrations, the usual case, by type and argument types alone.
    private var unnamed = TypeTable<UnsafeUnownedReference<RegistrationEntry>>()
    /// Named ones by type, argument types and name hash (what it misses is looked up in `keyed`).
    private var named = TypeTable<UnsafeUnownedReference<RegistrationEntry>>()
    /// Every entry, unnamed ones included.
    private var keyed: [ServiceKey: RegistrationEntry] = [:]
    /// Every key, in registration order.
    package private(set) var order: [ServiceKey] = []

    package init() {}

    package subscript(key: ServiceKey) -> RegistrationEntry? { unownedEntry(for: key)?.object }

    /// The unnamed registration without runtime arguments of a type.
    package func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamed[TypeTableKey(type: type, arguments: nil)]
    }

    /// The registration for `key`.
    package func unownedEntry(for key: ServiceKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        guard key.name != nil else { return unnamed[TypeTableKey(key)] }
        // The name's bytes are hashed; two equal names may differ in bytes: `keyed` decides.
        if let candidate = named[TypeTableKey(key)], candidate.withObject({ $0.key == key }) { return candidate }
        return keyed[key].map { UnsafeUnownedReference($0) }
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package mutating func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        let previous = keyed.updateValue(entry, forKey: entry.key)
        if entry.key.name == nil { unnamed[TypeTableKey(entry.key)] = .init(entry) } else { named[TypeTableKey(entry.key)] = .init(entry) }
        if let previous, previous.id != entry.id { order.removeAll { $0 == entry.key } }
        if previous?.id != entry.id { order.append(entry.key) }
        return previous
    }
}
