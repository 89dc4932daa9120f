/// The tables of a ``Registry``: a container changes its own copy under its lock, and a
/// resolution reads a registry's, which never changes.
package struct RegistryStorage {
    /// Unnamed registrations, the usual case, by type and argument types alone.
    private var unnamed = TypeTable<RegistrationEntry>()
    /// Named ones by type, argument types and name hash (what it misses is looked up in `namedByKey`).
    private var named = TypeTable<RegistrationEntry>()
    /// Named ones by their whole key, for names that share a hash. Unnamed ones are not here:
    /// hashing a whole key costs more than the rest of adding a registration.
    private var namedByKey: [ServiceKey: RegistrationEntry] = [:]
    /// Every key, in registration order.
    package private(set) var order: [ServiceKey] = []

    /// The unnamed registration of a type that takes no runtime arguments: the usual lookup.
    package func plainEntry(for type: ObjectIdentifier) -> RegistrationEntry? {
        unnamed[TypeTableKey(type: type, arguments: NoArguments.self)]
    }

    /// The registration for a type, a name and the types of runtime arguments (by default none).
    package func entry(
        for type: any Any.Type, name: String?, arguments: any ArgumentList.Type = NoArguments.self
    ) -> RegistrationEntry? {
        let typeKey = TypeTableKey(type: ObjectIdentifier(type), arguments: arguments)
        guard let name else { return unnamed[typeKey] }
        // The name's bytes are hashed; another name may share the hash, an equal one differ in bytes.
        if let candidate = named[typeKey.named(name)], BoundedText.sameName(candidate.key.name, name),
            candidate.key.argumentList == arguments
        {
            return candidate
        }
        return namedByKey[ServiceKey(serviceType: type, name: name, argumentList: arguments)]
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package mutating func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        let tableKey = TypeTableKey(entry.key)
        let previous: RegistrationEntry?
        if entry.key.name == nil {
            previous = unnamed[tableKey]
            unnamed[tableKey] = entry
        } else {
            previous = namedByKey.updateValue(entry, forKey: entry.key)
            named[tableKey] = entry
            // The same name spelled otherwise (a composed or a decomposed accent) is the same key:
            // the slot of the spelling it replaces answers with it too.
            if let previous, let replaced = previous.key.name, let name = entry.key.name,
                !BoundedText.sameBytes(replaced.utf8, name.utf8)
            {
                named[TypeTableKey(previous.key)] = entry
            }
        }
        if let previous, previous.id != entry.id { order.removeAll { $0 == entry.key } }
        if previous?.id != entry.id { order.append(entry.key) }
        return previous
    }
}
