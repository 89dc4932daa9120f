/// Numbers instances in the order a test container made them, so traces never show addresses.
struct InstanceNumbers {
    private final class WeakObject {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private var next = 0
    private var objects: [ObjectIdentifier: (reference: WeakObject, number: Int)] = [:]
    /// When to drop the entries of released objects, so a long test does not grow without bound.
    private var pruneAt = 1_024

    /// The number of `instance`: a new one if it was just made, else the one it was given.
    /// Values that are not objects have no identity, so only new ones get a number.
    mutating func number(for instance: Any, isNew: Bool) -> Int? {
        // `type(of:)` on an `Any` is the dynamic type, so a class behind a protocol counts too.
        guard type(of: instance) is AnyClass else {
            return isNew ? assign() : nil
        }
        let value = instance as AnyObject
        let identifier = ObjectIdentifier(value)
        if let known = objects[identifier], known.reference.object === value {
            return known.number
        }
        guard isNew else { return nil }
        let number = assign()
        objects[identifier] = (WeakObject(value), number)
        if objects.count >= pruneAt {
            objects = objects.filter { $0.value.reference.object != nil }
            pruneAt = max(1_024, objects.count * 2)
        }
        return number
    }

    /// Uses up numbers for new instances nobody will see again.
    mutating func skip(_ count: Int) {
        next += count
    }

    private mutating func assign() -> Int {
        next += 1
        return next
    }
}
