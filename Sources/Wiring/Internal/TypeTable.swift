/// An open-addressing table from a type and the types of its runtime arguments to the unnamed
/// entry for them: hashing two addresses with one multiplication is several times cheaper than
/// `Hasher`, and this lookup runs on every resolve.
struct TypeTable<Value> {
    /// Each key beside its value, in one array: a lookup follows one pointer, not two.
    private var slots: ContiguousArray<(key: TypeTableKey, value: Value?)> = []
    private var count = 0
    private var shift = UInt.bitWidth

    subscript(key: TypeTableKey) -> Value? {
        @inline(__always) get {
            guard count > 0 else { return nil }
            let mask = slots.count - 1
            var index = slot(for: key)
            while true {
                let found = slots[index].key
                if found == key { return slots[index].value }
                if found.type == 0 { return nil }
                index = (index + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 2 > slots.count { grow() }
            insert(key, newValue)
            assert(count * 2 <= slots.count && self[key] != nil, "a type table keeps every key it is given findable")
        }
    }

    private mutating func insert(_ key: TypeTableKey, _ value: consuming Value) {
        let mask = slots.count - 1
        var index = slot(for: key)
        while slots[index].key.type != 0 && slots[index].key != key {
            index = (index + 1) & mask
        }
        if slots[index].key.type == 0 { count += 1 }
        slots[index] = (key, value)
    }

    private func slot(for key: TypeTableKey) -> Int {
        Int(truncatingIfNeeded: ((key.type ^ key.arguments) &* TypeTableKey.multiplier) >> UInt(shift))
    }

    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        // The values move from the old slots to the new ones, each counted once throughout.
        var old = ContiguousArray<(key: TypeTableKey, value: Value?)>(repeating: (.empty, nil), count: capacity)
        swap(&old, &slots)
        shift = UInt.bitWidth - capacity.trailingZeroBitCount
        count = 0
        for index in old.indices where old[index].key.type != 0 {
            if let value = old[index].value.take() { insert(old[index].key, value) }
        }
    }
}

/// A type's address and its argument list's address, or 0 when it takes no arguments.
struct TypeTableKey: Equatable {
    var type: UInt
    var arguments: UInt

    init(type: ObjectIdentifier, arguments: any ArgumentList.Type) {
        self.type = UInt(bitPattern: type)
        self.arguments = arguments == NoArguments.self ? 0 : UInt(bitPattern: ObjectIdentifier(arguments))
    }

    /// A registration's key: its type, argument types and, when it has a name, the name's hash
    /// (which another name may share: a table of named keys checks what it finds).
    init(_ key: borrowing ServiceKey) {
        self.init(type: key.typeIdentifier, arguments: key.argumentList)
        if let name = key.name { self = named(name) }
    }

    /// This key with a name's hash mixed in.
    func named(_ name: String) -> TypeTableKey {
        TypeTableKey(type: type, arguments: arguments ^ nameHash(name))
    }

    /// 2^64 divided by the golden ratio (Fibonacci hashing), cut to the word size.
    /// (Computed: a stored static would cost a `swift_once` check on every lookup.)
    static var multiplier: UInt { UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64) }

    static let empty = TypeTableKey(type: UInt(0), arguments: 0)

    private init(type: UInt, arguments: UInt) {
        self.type = type
        self.arguments = arguments
    }
}

/// FNV-1a of a name's UTF-8 bytes, read in place: much cheaper than `Hasher` for short names.
func nameHash(_ name: String) -> UInt {
    let bytes = name.utf8.withContiguousStorageIfAvailable { $0.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } }
    return bytes.map { UInt(truncatingIfNeeded: $0) } ?? UInt(bitPattern: name.hashValue)
}
