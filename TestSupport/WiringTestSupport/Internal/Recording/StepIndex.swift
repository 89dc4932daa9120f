import Wiring

/// What numbering a resolution of many steps compares each step with, indexed once so that
/// numbering is linear in the steps: where each step's subtree ends, the step that made what a
/// `.graph` step shared, and the finished steps that gave each object a number. (A class: passed
/// to each step's numbering, a struct of three collections costs three retains.)
final class StepIndex {
    /// Above this many steps, numbering indexes them; below, scanning costs less (each step
    /// indexed costs about what scanning 200 finished steps does).
    static let indexedAbove = 256

    /// By step, the index after its last descendant (descendants follow a step).
    let subtreeEnd: [Int]
    /// By `.graph` step that shared an instance, the nearest earlier step of its registration
    /// that made one.
    let makers: [Int: Int]
    /// By object, the finished steps that gave it a number, in the order they finished.
    private var givingObject: [ObjectIdentifier: [Int]] = [:]

    init(_ steps: [StepLog.Step], entry: (StepLog.Step) -> RegistrationEntry?) {
        var subtreeEnd = [Int](repeating: steps.count, count: steps.count)
        var open: [Int] = []
        var makers: [Int: Int] = [:]
        var lastMade: [ObjectIdentifier: Int] = [:]
        for (index, step) in steps.enumerated() {
            // A step begins after every open step that is not its parent has ended.
            while let innermost = open.last, innermost != Int(step.parent) {
                subtreeEnd[innermost] = index
                open.removeLast()
            }
            open.append(index)
            guard let registration = entry(step).map(ObjectIdentifier.init) else { continue }
            if step.outcome == .sharedInGraph, let made = lastMade[registration] { makers[index] = made }
            if step.outcome == .created { lastMade[registration] = index }
        }
        (self.subtreeEnd, self.makers) = (subtreeEnd, makers)
    }

    /// The finished steps that gave `object` a number, in the order they finished.
    func finished(giving object: ObjectIdentifier) -> [Int] {
        givingObject[object] ?? []
    }

    /// Step `index` finished, giving a number to `object`.
    func note(_ index: Int, gave object: ObjectIdentifier?) {
        if let object { givingObject[object, default: []].append(index) }
    }
}

/// The objects earlier steps were numbered for, as a bit per object hash: a resolution too small
/// to index (see `StepIndex`) scans its finished steps only for an object that may be among them.
struct ObjectFilter {
    // Four words, not an array: numbering a resolution allocates nothing for them.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ object: ObjectIdentifier) {
        let (word, bit) = Self.position(of: object)
        switch word {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    func mayContain(_ object: ObjectIdentifier) -> Bool {
        let (word, bit) = Self.position(of: object)
        let bits = switch word {
        case 0: words.0
        case 1: words.1
        case 2: words.2
        default: words.3
        }
        return bits & bit != 0
    }

    /// One of 256 bits, from the object's address (objects are 16-byte aligned).
    private static func position(of object: ObjectIdentifier) -> (word: Int, bit: UInt64) {
        let hash = UInt64(UInt(bitPattern: object) >> 4) &* 0x9E37_79B9_7F4A_7C15
        return (Int(hash >> 62), 1 << ((hash >> 56) & 63))
    }
}
