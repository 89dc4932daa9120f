/// A container's registrations. A resolution keeps the registry it first saw and looks up in it
/// without locking; the container copies it before changing it while someone keeps it.
package final class Registry {
    /// Unnamed registrations, the usual case, by type and argument types alone. It does not
    /// own its entries: `keyed` does.
    // Changed only under the container's lock, and only while no resolution holds the
    // registry; reads need no dynamic exclusivity checks.
    @exclusivity(unchecked) private var unnamed = TypeTable()
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
        key.name == nil ? unnamed[TypeTable.Key(key)]?.takeUnretainedValue() : keyed[key]
    }

    /// The unnamed registration without runtime arguments of a type, which lives as long as
    /// this registry.
    @inline(__always)
    package func plainEntry(for type: ObjectIdentifier) -> Unmanaged<RegistrationEntry>? {
        unnamed[TypeTable.Key(type: type, arguments: nil)]
    }

    /// The registration for `key`, which lives as long as this registry.
    @inline(__always)
    package func unmanagedEntry(for key: ServiceKey) -> Unmanaged<RegistrationEntry>? {
        if key.name == nil { return unnamed[TypeTable.Key(key)] }
        return keyed[key].map(Unmanaged.passUnretained)
    }

    /// Stores `entry` under its key, returning the entry it replaces.
    package func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        let key = entry.key
        let previous = keyed.updateValue(entry, forKey: key)
        if key.name == nil {
            unnamed[TypeTable.Key(key)] = Unmanaged.passUnretained(entry)
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

/// An open-addressing table from a type and the types of its runtime arguments to the unnamed
/// entry for them: hashing two addresses with one multiplication is several times cheaper than
/// `Hasher`, and this lookup runs on every resolve.
private struct TypeTable {
    /// A type's address and its argument list's address, or 0 when it takes no arguments.
    struct Key: Equatable {
        var type: UInt
        var arguments: UInt

        @inline(__always)
        init(type: ObjectIdentifier, arguments: ObjectIdentifier?) {
            self.type = UInt(bitPattern: type)
            self.arguments = arguments.map { UInt(bitPattern: $0) } ?? 0
        }

        @inline(__always)
        init(_ key: ServiceKey) {
            self.init(
                type: key.typeIdentifier, arguments: key.takesArguments ? ObjectIdentifier(key.argumentList) : nil)
        }

        static let empty = Key(type: UInt(0), arguments: 0)

        private init(type: UInt, arguments: UInt) {
            self.type = type
            self.arguments = arguments
        }
    }

    private var keys: ContiguousArray<Key> = []
    private var values: ContiguousArray<Unmanaged<RegistrationEntry>?> = []
    private var count = 0
    private var shift = UInt.bitWidth
    /// 2^64 divided by the golden ratio (Fibonacci hashing), cut to the word size.
    private static let multiplier = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)

    subscript(key: Key) -> Unmanaged<RegistrationEntry>? {
        get {
            guard count > 0 else { return nil }
            let mask = keys.count - 1
            var index = slot(for: key)
            while true {
                let found = keys[index]
                if found == key { return values[index] }
                if found.type == 0 { return nil }
                index = (index + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 2 > keys.count { grow() }
            insert(key, newValue)
        }
    }

    private mutating func insert(_ key: Key, _ value: Unmanaged<RegistrationEntry>) {
        let mask = keys.count - 1
        var index = slot(for: key)
        while keys[index].type != 0 && keys[index] != key {
            index = (index + 1) & mask
        }
        if keys[index].type == 0 { count += 1 }
        keys[index] = key
        values[index] = value
    }

    @inline(__always)
    private func slot(for key: Key) -> Int {
        Int(truncatingIfNeeded: ((key.type ^ key.arguments) &* Self.multiplier) >> UInt(shift))
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let capacity = max(16, keys.count * 2)
        keys = ContiguousArray(repeating: .empty, count: capacity)
        values = ContiguousArray(repeating: nil, count: capacity)
        shift = UInt.bitWidth - capacity.trailingZeroBitCount
        count = 0
        for (key, value) in zip(oldKeys, oldValues) {
            if key.type != 0, let value { insert(key, value) }
        }
    }
}
