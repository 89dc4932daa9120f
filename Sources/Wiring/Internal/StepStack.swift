/// The registrations being resolved, from the top-level request down, in memory the resolution
/// keeps between calls. Each entry stays alive while it is on the stack: the frame resolving
/// it holds it.
struct StepStack {
    private var buffer: UnsafeMutablePointer<Unmanaged<RegistrationEntry>>?
    private(set) var count = 0
    private var capacity = 0

    var isEmpty: Bool { count == 0 }

    var entries: [RegistrationEntry] {
        (0..<count).map { buffer.unsafelyUnwrapped[$0].takeUnretainedValue() }
    }

    @inline(__always)
    func contains(id: Int) -> Bool {
        for index in 0..<count where buffer.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef({ $0.id }) == id {
            return true
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
