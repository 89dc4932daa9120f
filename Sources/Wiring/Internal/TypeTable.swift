/// An open-addressing table from a type and the types of its runtime arguments to the unnamed
/// entry for them: hashing two addresses with one multiplication is several times cheaper than
/// `Hasher`, and this lookup runs on every resolve.
struct TypeTable<Value> {
    private var keys: ContiguousArray<TypeTableKey> = []
    private var values: ContiguousArray<Value?> = []
    private var count = 0
    private var shift = UInt.bitWidth

    subscript(key: TypeTableKey) -> Value? {
        @inline(__always) get {
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
            assert(count * 2 <= keys.count && self[key] != nil, "a type table keeps every key it is given findable")
        }
    }

    private mutating func insert(_ key: TypeTableKey, _ value: Value) {
        let mask = keys.count - 1
        var index = slot(for: key)
        while keys[index].type != 0 && keys[index] != key {
            index = (index + 1) & mask
        }
        if keys[index].type == 0 { count += 1 }
        keys[index] = key
        values[index] = value
    }

    private func slot(for key: TypeTableKey) -> Int {
        Int(truncatingIfNeeded: ((key.type ^ key.arguments) &* TypeTableKey.multiplier) >> UInt(shift))
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

/// A type's address and its argument list's address, or 0 when it takes no arguments.
struct TypeTableKey: Equatable {
    var type: UInt
    var arguments: UInt

    init(type: ObjectIdentifier, arguments: ObjectIdentifier?) {
        self.type = UInt(bitPattern: type)
        self.arguments = arguments.map { UInt(bitPattern: $0) } ?? 0
    }

    /// A key's type, argument types and, for a named key, a hash of its name (which another name
    /// may share: a table of named keys checks what it finds).
    init(_ key: ServiceKey) {
        self.init(
            type: key.typeIdentifier, arguments: key.takesArguments ? ObjectIdentifier(key.argumentList) : nil)
        if let name = key.name { arguments ^= nameHash(name) }
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
