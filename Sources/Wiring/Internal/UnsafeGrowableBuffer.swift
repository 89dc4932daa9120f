/// A growable list in memory its owner frees: appending skips the copy-on-write, uniqueness
/// and bounds checks an array makes, which on every step of a recorded resolution cost more
/// than the rest of recording it. Emptying it keeps the memory for the next use.
///
/// Invariant: one owner uses it, on one thread at a time, and calls ``deallocate()`` once when
/// done; copies share the storage, so only the owner's copy is ever changed. Indices are below
/// ``count`` (checked in debug builds).
struct UnsafeGrowableBuffer<Element> {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// How many elements it holds.
    private(set) var count = 0

    /// Whether it holds no element.
    var isEmpty: Bool { count == 0 }

    /// The last element, if any.
    var last: Element? { count > 0 ? base.unsafelyUnwrapped[count - 1] : nil }

    /// The element at `index`, which must be below ``count``.
    subscript(index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
            return UnsafePointer(base.unsafelyUnwrapped + index)
        }
        unsafeMutableAddress {
            assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
            return base.unsafelyUnwrapped + index
        }
    }

    /// Runs `body` on the elements, read in place: a linear search through the subscript costs
    /// many times more in a debug build, where nothing is inlined.
    func withUnsafeElements<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Adds `element` at the end.
    mutating func append(_ element: __owned Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    /// Removes the last element and returns it; there must be one.
    mutating func removeLast() -> Element {
        assert(count > 0, "removeLast on an empty buffer")
        count -= 1
        return (base.unsafelyUnwrapped + count).move()
    }

    /// Removes every element, keeping the memory.
    mutating func removeAll() {
        guard count > 0 else { return }
        base.unsafelyUnwrapped.deinitialize(count: count)
        count = 0
    }

    /// Removes every element and frees the memory; the owner's last use.
    mutating func deallocate() {
        removeAll()
        base?.deallocate()
        base = nil
        capacity = 0
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = Swift.max(16, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
