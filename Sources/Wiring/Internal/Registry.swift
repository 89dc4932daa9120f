/// A container's registrations. A resolution keeps the registry it first saw and looks up in it
/// without locking; the container copies it before changing it while someone keeps it.
package final class Registry {
    /// Unnamed registrations, the usual case, by type and argument types alone. It does not
    /// own its entries: `keyed` does.
    // Changed only under the container's lock, and only while no resolution holds the
    // registry; reads need no dynamic exclusivity checks.
    @exclusivity(unchecked) private var unnamed = UnsafeTypeTable()
    /// Every entry, unnamed ones included.
    @exclusivity(unchecked) private var keyed: [ServiceKey: RegistrationEntry] = [:]
    /// Every key, in registration order.
    @exclusivity(unchecked) package private(set) var order: [ServiceKey] = []

    package init() {}

    private init(copying other: Registry) {
        unnamed = other.unnamed
        keyed = other.keyed
        order = other.order
    }

    package func copy() -> Registry {
        Registry(copying: self)
    }

    @inline(__always)
    package subscript(key: ServiceKey) -> RegistrationEntry? {
        key.name == nil ? unnamed[UnsafeTypeTable.Key(key)]?.takeUnretainedValue() : keyed[key]
    }

    /// The unnamed registration without runtime arguments of a type, which lives as long as
    /// this registry.
    @inline(__always)
    package func plainEntry(for type: ObjectIdentifier) -> Unmanaged<RegistrationEntry>? {
        unnamed[UnsafeTypeTable.Key(type: type, arguments: nil)]
    }

    /// The registration for `key`, which lives as long as this registry.
    @inline(__always)
    package func unmanagedEntry(for key: ServiceKey) -> Unmanaged<RegistrationEntry>? {
        if key.name == nil { return unnamed[UnsafeTypeTable.Key(key)] }
        return keyed[key].map(Unmanaged.passUnretained)
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        let key = entry.key
        let previous = keyed.updateValue(entry, forKey: key)
        if key.name == nil {
            unnamed[UnsafeTypeTable.Key(key)] = Unmanaged.passUnretained(entry)
        }
        if previous == nil {
            order.append(key)
        } else if previous?.id != entry.id {
            order.removeAll { $0 == key }
            order.append(key)
        }
        return previous
    }

    package var entries: [RegistrationEntry] {
        order.compactMap { self[$0] }
    }
}
