import Wiring

/// The registrations a recorder's steps refer to, each retained once however many steps use
/// it, so that a step can hold its registration without reference counting: a retain and a
/// release per recorded step cost more than the rest of recording it.
///
/// A set of entries by identity, with open addressing. Like ``RecordBuffer``, copies share the
/// storage: only the owner's copy may change it, and the owner frees it.
struct KeptEntries {
    private var slots: UnsafeMutablePointer<Unmanaged<RegistrationEntry>?>?
    /// A power of two, or 0 before the first entry.
    private var capacity = 0
    private(set) var count = 0

    /// Retains `entry` until ``removeAll()``, unless it is kept already.
    /// - Returns: Whether it was not kept before.
    @inline(__always) @discardableResult
    mutating func keep(_ entry: Unmanaged<RegistrationEntry>) -> Bool {
        if capacity > 0 {
            let mask = capacity - 1
            var index = Self.hash(entry) & mask
            while let kept = slots.unsafelyUnwrapped[index] {
                if kept.toOpaque() == entry.toOpaque() { return false }
                index = (index + 1) & mask
            }
            if (count + 1) * 2 <= capacity {
                slots.unsafelyUnwrapped[index] = entry.retain()
                count += 1
                return true
            }
        }
        insertGrowing(entry)
        return true
    }

    /// Releases every kept entry.
    mutating func removeAll() {
        guard count > 0, let slots else { return }
        for index in 0..<capacity {
            slots[index]?.release()
            slots[index] = nil
        }
        count = 0
    }

    mutating func deallocate() {
        removeAll()
        slots?.deallocate()
        slots = nil
        capacity = 0
    }

    @inline(never)
    private mutating func insertGrowing(_ entry: Unmanaged<RegistrationEntry>) {
        let old = slots
        let oldCapacity = capacity
        capacity = Swift.max(16, capacity * 2)
        let grown = UnsafeMutablePointer<Unmanaged<RegistrationEntry>?>.allocate(capacity: capacity)
        grown.initialize(repeating: nil, count: capacity)
        slots = grown
        count = 0
        if let old {
            for index in 0..<oldCapacity {
                if let kept = old[index] { place(kept) }
            }
            old.deallocate()
        }
        place(entry.retain())
    }

    /// Puts an entry that is not in the set, and already retained, into a free slot.
    private mutating func place(_ entry: Unmanaged<RegistrationEntry>) {
        let mask = capacity - 1
        var index = Self.hash(entry) & mask
        while slots.unsafelyUnwrapped[index] != nil {
            index = (index + 1) & mask
        }
        slots.unsafelyUnwrapped[index] = entry
        count += 1
    }

    @inline(__always)
    private static func hash(_ entry: Unmanaged<RegistrationEntry>) -> Int {
        let address = UInt(bitPattern: entry.toOpaque())
        return Int(truncatingIfNeeded: (address >> 4) &* 0x9E37_79B9_7F4A_7C15 >> 32)
    }
}
