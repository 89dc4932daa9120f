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
/// through several shelves, top first, takes it once; emptying or closing one costs what it
/// keeps, not what the others do.
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

    /// What one shelf keeps.
    private struct Shelf {
        var kept: [Key: Kept] = [:]
        /// The key each registration's instance is kept under now, by entry id: keeping one for a
        /// later copy of the entry (its options changed) lets go of this one, as a container
        /// drops its instance then. (One for an earlier copy, from a resolution that began before
        /// the change, is kept beside it, never instead of it.)
        var current: [Int: Key] = [:]

        /// Keeps `kept` under `key`, returning what it replaces: what was kept for an earlier copy
        /// of its entry, but not for a later one.
        mutating func keep(_ kept: Kept, under key: Key) -> [AnyObject] {
            var released: [AnyObject] = []
            if let current = current[key.entry], current != key {
                if let now = self.kept[current], now.entry.version > kept.entry.version {
                    return self.kept.updateValue(kept, forKey: key)?.released ?? []
                }
                released = self.kept.removeValue(forKey: current)?.released ?? []
            }
            current[key.entry] = key
            return released + (self.kept.updateValue(kept, forKey: key)?.released ?? [])
        }

        /// Drops what is kept for a copy of `entry` from before its options last changed.
        mutating func dropEarlierCopies(of entry: RegistrationEntry) -> [AnyObject] {
            guard let current = current[entry.id], let now = kept[current], now.entry.version < entry.version else {
                return []
            }
            self.current[entry.id] = nil
            return kept.removeValue(forKey: current)?.released ?? []
        }

        /// Drops what is kept under the keys `dropping` selects, returning it for the caller to
        /// let go of outside the lock.
        mutating func remove(where dropping: (Key) -> Bool) -> [AnyObject] {
            let keys = kept.keys.filter(dropping)
            for key in keys where current[key.entry] == key { current[key.entry] = nil }
            return keys.flatMap { kept.removeValue(forKey: $0)?.released ?? [] }
        }

        var released: [AnyObject] { kept.values.flatMap(\.released) }
    }

    /// The open shelves, by number: 0, and those opened and not closed since. A resolution that
    /// began before its shelf was closed (its layer popped) keeps nothing there, rather than
    /// something nobody can find or drop again.
    private let shelves = LockedState<[Int: Shelf]>([0: Shelf()])

    package init() {}

    /// The box kept for `entry` in its current scope.
    package func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        shelves.withLock { $0[0]?.kept[Key(entry)]?.box }
    }

    /// The box kept for `entry` in its current scope on the first of `shelves` that has one, the
    /// note beside it and that shelf: one lock, whatever the number of shelves.
    package func kept(
        for entry: RegistrationEntry, onShelves numbers: some Sequence<Int>
    ) -> (box: AnyObject, note: (any Sendable)?, shelf: Int)? {
        let key = Key(entry)
        return shelves.withLock { shelves in
            for number in numbers {
                if let kept = shelves[number]?.kept[key] { return (kept.box, kept.note, number) }
            }
            return nil
        }
    }

    package func store(_ box: AnyObject, for entry: RegistrationEntry) {
        store(box, for: entry, onShelf: 0, note: nil)
    }

    /// Keeps `box` for `entry` on shelf `number`, if it is open, with `note` beside it, under one
    /// lock; lets go of what any shelf keeps for an earlier copy of the entry (its options changed
    /// since, and the app's container lets go of its instance then), outside it.
    package func store(_ box: AnyObject, for entry: RegistrationEntry, onShelf number: Int, note: (any Sendable)?) {
        let released = shelves.withLock { shelves -> [AnyObject] in
            guard shelves[number] != nil else { return [] }
            let earlier = Self.dropEarlierCopies(of: entry, from: &shelves, except: number)
            return earlier + (shelves[number]?.keep(Kept(box: box, note: note, entry: entry), under: Key(entry)) ?? [])
        }
        withExtendedLifetime(released) {}
    }

    /// Lets go of what any shelf keeps for an earlier copy of `entry`, whose options changed
    /// since: as a container lets go of what it kept for a registration then.
    package func dropEarlierCopies(of entry: RegistrationEntry) {
        let released = shelves.withLock { Self.dropEarlierCopies(of: entry, from: &$0, except: nil) }
        withExtendedLifetime(released) {}
    }

    private static func dropEarlierCopies(of entry: RegistrationEntry, from shelves: inout [Int: Shelf], except: Int?) -> [AnyObject] {
        var released: [AnyObject] = []
        for number in shelves.keys where number != except {
            released += shelves[number]?.dropEarlierCopies(of: entry) ?? []
        }
        return released
    }

    /// Drops what is kept for the registration with `id` (and its argument variants), in any
    /// scope, on the shelves `numbers` (every shelf if `nil`), returning it so the caller releases
    /// it outside the lock (a deinit may well resolve something).
    @discardableResult
    package func remove(entryID id: Int, onShelves numbers: Set<Int>? = nil) -> [AnyObject] {
        remove(onShelves: numbers) { $0.registration == id }
    }

    /// Drops what is kept for the registrations with these ids, returning it.
    package func remove(entryIDs ids: Set<Int>, onShelves numbers: Set<Int>? = nil) -> [AnyObject] {
        remove(onShelves: numbers) { ids.contains($0.entry) || ids.contains($0.registration) }
    }

    /// Drops the instances of `scope`, returning them.
    package func reset(_ scope: Scope) -> [AnyObject] {
        reset(scope, keeping: [])
    }

    /// Removes the instances of `scope` on the shelves `numbers` (every shelf if `nil`), but for
    /// those of the registrations `kept` (by id), and returns them, to be released by the caller
    /// outside the lock.
    package func reset(_ scope: Scope, keeping kept: Set<Int>, onShelves numbers: Set<Int>? = nil) -> [AnyObject] {
        remove(onShelves: numbers) { $0.scope == scope && !kept.contains($0.registration) && !kept.contains($0.entry) }
    }

    /// Drops what `dropping` selects on the shelves `numbers` (every shelf if `nil`), returning it.
    private func remove(onShelves numbers: Set<Int>?, where dropping: (Key) -> Bool) -> [AnyObject] {
        shelves.withLock { shelves in
            (numbers.map(Array.init) ?? Array(shelves.keys)).flatMap { shelves[$0]?.remove(where: dropping) ?? [] }
        }
    }

    /// Opens shelf `number`: instances may be put on it until it is closed.
    package func openShelf(_ number: Int) {
        shelves.withLock { shelves in
            if shelves[number] == nil { shelves[number] = Shelf() }
        }
    }

    /// Drops everything on shelf `number`, returning it; closes the shelf if `closing`, so that
    /// nothing is put on it any more.
    package func removeShelf(_ number: Int, closing: Bool = false) -> [AnyObject] {
        shelves.withLock { shelves in
            let emptied = shelves.removeValue(forKey: number)
            if !closing, emptied != nil { shelves[number] = Shelf() }
            return emptied?.released ?? []
        }
    }

    /// Drops everything, every shelf staying open, returning it.
    package func removeAll() -> [AnyObject] {
        shelves.withLock { shelves in
            defer { shelves = shelves.mapValues { _ in Shelf() } }
            return shelves.values.flatMap(\.released)
        }
    }

    /// The instance a kept box holds; `nil` for a `.weak` one that is gone.
    package static func instance(in box: AnyObject) -> Any? {
        (box as? KeptInstance)?.anyValue
    }

    /// The object a kept box holds, if its instance is an object (and, for `.weak`, still alive).
    package static func object(in box: AnyObject) -> AnyObject? {
        guard let value = instance(in: box) else { return nil }
        return type(of: value) is AnyClass ? value as AnyObject : nil
    }
}
