/// Numbers instances in the order a test container made them, so traces never show addresses.
///
/// Remembers the number of each object a stored scope keeps, by identity, so that finding it
/// cached later shows the number it was made with. Identity is enough without holding the
/// object: a cached object is alive when found, so the last object made at its address is it.
struct InstanceNumbers {
    private var last = 0
    private var stored: [ObjectIdentifier: Int] = [:]

    /// The next number.
    mutating func assign() -> Int {
        last += 1
        return last
    }

    /// Uses up the next `count` numbers, for new instances nobody will see again.
    mutating func skip(_ count: Int) {
        last += count
    }

    /// The number of the object at `object`'s address that a stored scope keeps.
    func number(ofStored object: ObjectIdentifier) -> Int? {
        stored.isEmpty ? nil : stored[object]
    }

    /// Remembers the number of an object a stored scope keeps, in place of whatever object was
    /// at its address before.
    mutating func remember(stored object: ObjectIdentifier, as number: Int) {
        stored[object] = number
    }
}
