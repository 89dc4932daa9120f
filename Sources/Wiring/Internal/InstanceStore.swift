/// Instances kept for registrations, by registration and scope: the store of a test container
/// (each of its layers a shelf, so that popping a layer drops what was made while it was on top),
/// the verification sandbox, the scope probe and a container's unregistered (`Injectable`) types.
/// (A container keeps its own registrations' instances in their entries' slots, which a scope
/// change replaces with the entry.)
///
/// Keyed by the entry itself, not only its registration: changing a registration's options
/// (`.scope(_:)`, a hook) replaces its entry with a copy, and what was kept for the old one is
/// never handed out again, as a container drops what it keeps for the registration then. Beside
/// each instance it keeps a note its owner may add (a test container: what the instance was made
/// with), read with the instance under the same lock. One lock guards every shelf: a look
/// through several shelves, top first, takes it once.
package final class InstanceStore: InstanceCache {
    private struct Key: Hashable {
        /// The shelf the instance is kept on: a test container's layer, by id; 0 for the rest.
        let shelf: Int
        let entry: Int
        /// The registration the entry keeps instances for (see `RegistrationEntry.registrationID`).
        let registration: Int
        let scope: Scope
        /// Which copy of the registration: unique while the instance is kept, as `Kept` holds
        /// the entry.
        let copy: ObjectIdentifier

        init(_ entry: RegistrationEntry, shelf: Int) {
            self.shelf = shelf
            self.entry = entry.id
            self.registration = entry.registrationID
            self.scope = entry.scope
            self.copy = ObjectIdentifier(entry)
        }

        /// The entry and its shelf, not the scope: an entry is kept under one scope at a time but
        /// for a moment, and hashing the scope's name cost more than the rest of a lookup.
        func hash(into hasher: inout Hasher) {
            hasher.combine(entry)
            hasher.combine(shelf)
        }

        /// The registration's entry on its shelf, whichever copy.
        var registrationOnShelf: ShelvedEntry { ShelvedEntry(shelf: shelf, entry: entry) }
    }

    private struct ShelvedEntry: Hashable {
        let shelf: Int
        let entry: Int
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
        /// The key each registration's instance is kept under now, by shelf and entry id: keeping
        /// one for a later copy of the entry (its options changed) lets go of this one, as a
        /// container drops its instance then. (One for an earlier copy, from a resolution that
        /// began before the change, is kept beside it, never instead of it.)
        var current: [ShelvedEntry: Key] = [:]
        /// The shelves instances may be put on: 0, and those opened and not closed since. A
        /// resolution that began before its shelf was closed (its layer popped) keeps nothing
        /// there, rather than something nobody can find or drop again.
        var open: Set<Int> = [0]

        /// Drops what is kept under the keys `dropping` selects, returning it for the caller to
        /// let go of outside the lock.
        mutating func remove(where dropping: (Key) -> Bool) -> [AnyObject] {
            let keys = kept.keys.filter(dropping)
            for key in keys where current[key.registrationOnShelf] == key { current[key.registrationOnShelf] = nil }
            return keys.flatMap { kept.removeValue(forKey: $0)?.released ?? [] }
        }
    }

    private let instances = LockedState(Instances())

    package init() {}

    /// The box kept for `entry` in its current scope.
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        instances.withLock { $0.kept[Key(entry, shelf: 0)]?.box }
    }

    /// The box kept for `entry` in its current scope on the first of `shelves` that has one, the
    /// note beside it and that shelf: one lock, whatever the number of shelves.
    package func kept(
        for entry: RegistrationEntry, onShelves shelves: some Sequence<Int>
    ) -> (box: AnyObject, note: (any Sendable)?, shelf: Int)? {
        instances.withLock { instances in
            for shelf in shelves {
                if let kept = instances.kept[Key(entry, shelf: shelf)] { return (kept.box, kept.note, shelf) }
            }
            return nil
        }
    }

    package func store(_ box: AnyObject, for entry: RegistrationEntry) {
        store(box, for: entry, onShelf: 0, note: nil)
    }

    /// Keeps `box` for `entry` on `shelf`, with `note` beside it, under one lock; lets go of what
    /// was kept there for an earlier copy of the entry, outside it.
    package func store(_ box: AnyObject, for entry: RegistrationEntry, onShelf shelf: Int, note: (any Sendable)?) {
        let replaced = instances.withLock { instances -> [Kept?] in
            guard instances.open.contains(shelf) else { return [] }
            let key = Key(entry, shelf: shelf)
            var replaced: [Kept?] = []
            if let current = instances.current[key.registrationOnShelf], current != key {
                if let now = instances.kept[current], now.entry.version > entry.version {
                    return [instances.kept.updateValue(Kept(box: box, note: note, entry: entry), forKey: key)]
                }
                replaced.append(instances.kept.removeValue(forKey: current))
            }
            instances.current[key.registrationOnShelf] = key
            replaced.append(instances.kept.updateValue(Kept(box: box, note: note, entry: entry), forKey: key))
            return replaced
        }
        withExtendedLifetime(replaced) {}
    }

    /// Drops what is kept for the registration with `id` (and its argument variants), in any
    /// scope, on `shelves` (every shelf if `nil`), returning it so the caller releases it outside
    /// the lock (a deinit may well resolve something).
    @discardableResult
    package func remove(entryID id: Int, onShelves shelves: Set<Int>? = nil) -> [AnyObject] {
        instances.withLock { $0.remove { $0.registration == id && shelves?.contains($0.shelf) != false } }
    }

    /// Drops what is kept for the registrations with these ids, returning it.
    package func remove(entryIDs ids: Set<Int>, onShelves shelves: Set<Int>? = nil) -> [AnyObject] {
        instances.withLock { instances in
            instances.remove {
                (ids.contains($0.entry) || ids.contains($0.registration)) && shelves?.contains($0.shelf) != false
            }
        }
    }

    /// Drops the instances of `scope`, returning them.
    package func reset(_ scope: Scope) -> [AnyObject] {
        reset(scope, keeping: [])
    }

    /// Removes the instances of `scope` on `shelves` (every shelf if `nil`), but for those of the
    /// registrations `kept` (by id), and returns them, to be released by the caller outside the
    /// lock.
    package func reset(_ scope: Scope, keeping kept: Set<Int>, onShelves shelves: Set<Int>? = nil) -> [AnyObject] {
        instances.withLock { instances in
            instances.remove {
                $0.scope == scope && !kept.contains($0.registration) && !kept.contains($0.entry)
                    && shelves?.contains($0.shelf) != false
            }
        }
    }

    /// Opens `shelf`: instances may be put on it until it is closed.
    package func openShelf(_ shelf: Int) {
        instances.withLock { _ = $0.open.insert(shelf) }
    }

    /// Drops everything on `shelf`, returning it; closes the shelf if `closing`, so that nothing
    /// is put on it any more.
    package func removeShelf(_ shelf: Int, closing: Bool = false) -> [AnyObject] {
        instances.withLock { instances in
            if closing { instances.open.remove(shelf) }
            return instances.remove { $0.shelf == shelf }
        }
    }

    /// Drops everything, returning it.
    package func removeAll() -> [AnyObject] {
        instances.withLock { instances in
            defer {
                instances.kept = [:]
                instances.current = [:]
            }
            return instances.kept.values.flatMap(\.released)
        }
    }

    /// The object a kept box holds, if its instance is an object (and, for `.weak`, still alive).
    package static func object(in box: AnyObject) -> AnyObject? {
        guard let value = (box as? KeptInstance)?.anyValue else { return nil }
        return type(of: value) is AnyClass ? value as AnyObject : nil
    }
}
