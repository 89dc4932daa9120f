/// A container's registrations. A resolution keeps the registry it first saw and looks up in it
/// without locking; the container copies it before changing it while someone keeps it.
package final class Registry: UnsafeRegistryStorage {
    override package init() {
        super.init()
    }

    private init(copying other: Registry) {
        super.init(copying: other)
    }

    package func copy() -> Registry {
        Registry(copying: self)
    }

    @inline(__always)
    package subscript(key: ServiceKey) -> RegistrationEntry? {
        key.name == nil ? unnamedEntry(UnsafeTypeTable.Key(key))?.object : keyedEntry(key)
    }

    /// The unnamed registration without runtime arguments of a type, which lives as long as
    /// this registry.
    @inline(__always)
    package func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamedEntry(UnsafeTypeTable.Key(type: type, arguments: nil))
    }

    /// The registration for `key`, which lives as long as this registry.
    @inline(__always)
    package func unownedEntry(for key: ServiceKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        if key.name == nil { return unnamedEntry(UnsafeTypeTable.Key(key)) }
        return keyedEntry(key).map { UnsafeUnownedReference($0) }
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        change { unnamed, keyed, order in
            let key = entry.key
            let previous = keyed.updateValue(entry, forKey: key)
            if key.name == nil {
                unnamed[UnsafeTypeTable.Key(key)] = UnsafeUnownedReference(entry)
            }
            if previous == nil {
                order.append(key)
            } else if previous?.id != entry.id {
                order.removeAll { $0 == key }
                order.append(key)
            }
            return previous
        }
    }

    package var entries: [RegistrationEntry] {
        order.compactMap { self[$0] }
    }
}
