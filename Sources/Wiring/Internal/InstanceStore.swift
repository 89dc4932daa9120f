/// Instances kept for registrations, by registration and scope: the store of a test container's
/// layer, the verification sandbox, the scope probe and a container's unregistered
/// (`Injectable`) types. (A container keeps its own registrations' instances in their entries'
/// slots, which a scope change replaces with the entry.)
///
/// Keyed by the entry itself, not only its registration: changing a registration's options
/// (`.scope(_:)`, a hook) replaces its entry with a copy, and what was kept for the old one is
/// never handed out again, as a container drops what it keeps for the registration then. Beside each instance it keeps
/// a note its owner may add (a test container's layer: what the instance was made with), read
/// with the instance under the same lock.
package final class InstanceStore: InstanceCache {
    private struct Key: Hashable {
        let entry: Int
        /// The registration the entry keeps instances for (see `RegistrationEntry.registrationID`).
        let registration: Int
        let scope: Scope
        /// Which copy of the registration: unique while the instance is kept, as `Kept` holds
        /// the entry.
        let copy: ObjectIdentifier

        init(_ entry: RegistrationEntry) {
            self.entry = entry.id
            self.registration = entry.registrationID
            self.scope = entry.scope
            self.copy = ObjectIdentifier(entry)
        }

        /// The entry alone: an entry is kept under one scope at a time but for a moment, and
        /// hashing the scope's name cost more than the rest of a lookup.
        func hash(into hasher: inout Hasher) {
            hasher.combine(entry)
        }
    }

    /// A kept instance's box, the note beside it, and the entry it was kept for, held so that
    /// no other entry takes its identity while it is a key.
    private struct Kept {
        let box: AnyObject
        var note: (any Sendable)?
        let entry: RegistrationEntry

        /// What the caller of a removal lets go of, outside the lock: the last reference to
        /// either may run a deinit that resolves.
        var released: [AnyObject] { [box, entry] }
    }

    private struct Instances {
        var kept: [Key: Kept] = [:]
        /// The key each registration's instance is kept under now, by entry id: keeping one for a
        /// later copy of the entry (its options changed) lets go of this one, as a container
        /// drops its instance then. (One for an earlier copy, from a resolution that began before
        /// the change, is kept beside it, never instead of it.)
        var current: [Int: Key] = [:]

        /// Drops what is kept under the keys `dropping` selects, returning it for the caller to
        /// let go of outside the lock.
        mutating func remove(where dropping: (Key) -> Bool) -> [AnyObject] {
            let keys = kept.keys.filter(dropping)
            for key in keys where current[key.entry] == key { current[key.entry] = nil }
            return keys.flatMap { kept.removeValue(forKey: $0)?.released ?? [] }
        }
    }

    private let instances = LockedState(Instances())

    package init() {}

    /// The box kept for `entry` in its current scope.
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        instances.withLock { $0.kept[Key(entry)]?.box }
    }

    /// The box kept for `entry` in its current scope, and the note beside it.
    package func kept(for entry: RegistrationEntry) -> (box: AnyObject, note: (any Sendable)?)? {
        instances.withLock { $0.kept[Key(entry)].map { ($0.box, $0.note) } }
    }

    package func store(_ box: AnyObject, for entry: RegistrationEntry) {
        store(box, for: entry, note: nil)
    }

    /// Keeps `box` for `entry`, with `note` beside it, under one lock; lets go of what was kept
    /// for an earlier copy of the entry, outside it.
    package func store(_ box: AnyObject, for entry: RegistrationEntry, note: (any Sendable)?) {
        let replaced = instances.withLock { instances -> [Kept?] in
            let key = Key(entry)
            var replaced: [Kept?] = []
            if let current = instances.current[entry.id], current != key {
                if let now = instances.kept[current], now.entry.version > entry.version {
                    return [instances.kept.updateValue(Kept(box: box, note: note, entry: entry), forKey: key)]
                }
                replaced.append(instances.kept.removeValue(forKey: current))
            }
            instances.current[entry.id] = key
            replaced.append(instances.kept.updateValue(Kept(box: box, note: note, entry: entry), forKey: key))
            return replaced
        }
        withExtendedLifetime(replaced) {}
    }

    /// Drops what is kept for the registration with `id` (and its argument variants), in any
    /// scope, returning it so the caller releases it outside the lock (a deinit may well
    /// resolve something).
    @discardableResult
    package func remove(entryID id: Int) -> [AnyObject] {
        instances.withLock { $0.remove { $0.registration == id } }
    }

    /// Drops what is kept for the registrations with these ids, returning it.
    package func remove(entryIDs ids: Set<Int>) -> [AnyObject] {
        instances.withLock { $0.remove { ids.contains($0.entry) || ids.contains($0.registration) } }
    }

    /// Drops the instances of `scope`, returning them.
    package func reset(_ scope: Scope) -> [AnyObject] {
        reset(scope, keeping: [])
    }

    /// Removes the instances of `scope`, but for those of the registrations `kept` (by id), and
    /// returns them, to be released by the caller outside the lock.
    package func reset(_ scope: Scope, keeping kept: Set<Int>) -> [AnyObject] {
        instances.withLock { $0.remove { $0.scope == scope && !kept.contains($0.registration) && !kept.contains($0.entry) } }
    }

    /// Drops everything, returning it.
    package func removeAll() -> [AnyObject] {
        instances.withLock { instances in
            defer { instances = Instances() }
            return instances.kept.values.flatMap(\.released)
        }
    }

    /// The object a kept box holds, if its instance is an object (and, for `.weak`, still alive).
    package static func object(in box: AnyObject) -> AnyObject? {
        guard let value = (box as? KeptInstance)?.anyValue else { return nil }
        return type(of: value) is AnyClass ? value as AnyObject : nil
    }

    /// Every object kept (for `.weak`, while it lives).
    package var objects: [AnyObject] {
        instances.withLock { $0.kept.values.map(\.box) }.compactMap(Self.object(in:))
    }

    /// Whether anything is kept for `entry` in its current scope.
    package func contains(_ entry: RegistrationEntry) -> Bool {
        cachedInstance(for: entry) != nil
    }
}
