/// The registrations being resolved, from the top-level request down, in memory the resolution
/// keeps between calls.
///
/// Invariant: each entry on the stack is alive while it is there, because the frame that
/// pushed it holds its lookup (or a continued resolution's enclosing one holds it) until it pops
/// it; so the stack holds them unretained. Pops match pushes (checked in debug builds).
struct UnsafeStepStack {
    private var buffer: UnsafeMutablePointer<Unmanaged<RegistrationEntry>>?
    private(set) var count = 0
    private var capacity = 0

    var isEmpty: Bool { count == 0 }

    var entries: [RegistrationEntry] {
        (0..<count).map { buffer.unsafelyUnwrapped[$0].takeUnretainedValue() }
    }

    /// Whether the entry with `id` is on the stack at `start` or above.
    @inline(__always)
    func contains(id: Int, from start: Int = 0) -> Bool {
        var index = start
        while index < count {
            if buffer.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef({ $0.id }) == id { return true }
            index += 1
        }
        return false
    }

    @inline(__always)
    mutating func push(_ entry: RegistrationEntry) {
        if count == capacity { grow() }
        buffer.unsafelyUnwrapped[count] = Unmanaged.passUnretained(entry)
        count += 1
    }

    @inline(__always)
    mutating func pop() {
        assert(count > 0, "a step popped more entries than it pushed")
        count -= 1
    }

    mutating func removeAll() {
        count = 0
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newBuffer = UnsafeMutablePointer<Unmanaged<RegistrationEntry>>.allocate(capacity: newCapacity)
        if let buffer {
            newBuffer.moveInitialize(from: buffer, count: count)
            buffer.deallocate()
        }
        buffer = newBuffer
        capacity = newCapacity
    }

    mutating func deallocate() {
        buffer?.deallocate()
        buffer = nil
        count = 0
        capacity = 0
    }
}
