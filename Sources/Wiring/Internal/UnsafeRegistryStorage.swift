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

    /// The unnamed registration without runtime arguments of a type: only loads, so a caller need
    /// not retain what it reads the storage from (unlike for the lookup below).
    package func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamed[TypeTableKey(type: type, arguments: NoArguments.self)]
    }

    /// The registration for a type, a name and the types of runtime arguments (by default none).
    package func unownedEntry(
        for type: any Any.Type, name: String?, arguments: any ArgumentList.Type = NoArguments.self
    ) -> UnsafeUnownedReference<RegistrationEntry>? {
        let typeKey = TypeTableKey(type: ObjectIdentifier(type), arguments: arguments)
        guard let name else { return unnamed[typeKey] }
        // The name's bytes are hashed; another name may share the hash, an equal one differ in bytes.
        if let candidate = named[typeKey.named(name)], candidate.withObject({ $0.key.name == name && $0.key.argumentList == arguments }) {
            return candidate
        }
        return keyed[ServiceKey(serviceType: type, name: name, argumentList: arguments)].map { UnsafeUnownedReference($0) }
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
