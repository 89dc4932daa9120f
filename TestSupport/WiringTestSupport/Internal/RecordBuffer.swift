/// A growable list for one owner that mutates it on one thread at a time, such as a recorder
/// during its resolution: appending skips the copy-on-write and bounds checks an array makes,
/// which on every recorded step cost more than the rest of recording it. The owner frees it.
/// Copies share the storage, so only the owner's copy may change it.
struct RecordBuffer<Element>: RandomAccessCollection {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var endIndex = 0

    var startIndex: Int { 0 }

    subscript(position: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base.unsafelyUnwrapped + position) }
        @inline(__always) unsafeMutableAddress { base.unsafelyUnwrapped + position }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if endIndex == capacity { grow() }
        (base.unsafelyUnwrapped + endIndex).initialize(to: element)
        endIndex += 1
    }

    /// Removes and returns the last element; the buffer must not be empty.
    @inline(__always)
    mutating func removeLast() -> Element {
        endIndex -= 1
        return (base.unsafelyUnwrapped + endIndex).move()
    }

    /// Removes every element, keeping the memory for the next ones.
    mutating func removeAll() {
        guard endIndex > 0 else { return }
        base.unsafelyUnwrapped.deinitialize(count: endIndex)
        endIndex = 0
    }

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
            newBase.moveInitialize(from: base, count: endIndex)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
