/// What a ``Registry`` holds (as its superclass, so that reading it is one load), read on every resolve without Swift's dynamic exclusivity checks:
/// with them, a transient resolve runs 15% more instructions and a named one 16% more
/// (callgrind, release build).
///
/// Invariant: changed only under the lock of the container that owns the registry, and never
/// once a resolution may read it (the container copies the registry instead; see
/// `Container.State.sharedRegistry`), so reads never overlap a change. Debug builds stop on a
/// change after `freeze()`.
package class UnsafeRegistryStorage {
    /// Unnamed registrations, the usual case, by type and argument types alone. It does not
    /// own its entries: `keyed` does.
    @exclusivity(unchecked) private final var unnamed = TypeTable<UnsafeUnownedReference<RegistrationEntry>>()
    /// Every entry, unnamed ones included.
    @exclusivity(unchecked) private final var keyed: [ServiceKey: RegistrationEntry] = [:]
    /// Every key, in registration order.
    @exclusivity(unchecked) package final private(set) var order: [ServiceKey] = []
    #if DEBUG
    private var isFrozen = false
    #endif

    init() {}

    /// The unnamed entry for `key`, read in place: through the subclass, a read of the table
    /// or the dictionary copies it (a retain and a release).
    final func unnamed(_ key: TypeTableKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamed[key]
    }

    /// The unnamed registration without runtime arguments of a type, held by this registry,
    /// which the caller keeps alive while it uses the reference.
    package final func plainEntry(for type: ObjectIdentifier) -> UnsafeUnownedReference<RegistrationEntry>? {
        unnamed[TypeTableKey(type: type, arguments: nil)]
    }

    /// The registration for `key`, held by this registry, which the caller keeps alive while
    /// it uses the reference.
    package final func unownedEntry(for key: ServiceKey) -> UnsafeUnownedReference<RegistrationEntry>? {
        if key.name == nil { return unnamed[TypeTableKey(key)] }
        return keyed[key].map { UnsafeUnownedReference($0) }
    }

    /// The entry for `key`, unnamed or not, read in place.
    final func keyedEntry(_ key: ServiceKey) -> RegistrationEntry? {
        keyed[key]
    }

    /// Starts with the registrations of `other`, to change while readers keep `other`.
    init(copying other: UnsafeRegistryStorage) {
        unnamed = other.unnamed
        keyed = other.keyed
        order = other.order
    }

    /// Marks the storage as one that resolutions may read: it never changes from now on.
    final func freeze() {
        #if DEBUG
        isFrozen = true
        #endif
    }

    /// Stores `entry` under its key, returning the entry it replaces; the storage must be one
    /// no resolution may read yet. The unnamed table refers to the entry unretained: `keyed`
    /// holds it for as long as the table does.
    package final func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        #if DEBUG
        precondition(!isFrozen, "a registry that resolutions may read is copied, not changed")
        #endif
        let key = entry.key
        let previous = keyed.updateValue(entry, forKey: key)
        if key.name == nil {
            unnamed[TypeTableKey(key)] = UnsafeUnownedReference(entry)
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
