/// The registrations being resolved, from the top-level request down, in memory the resolution
/// keeps between calls.
///
/// Invariant: each entry on the stack is alive while it is there, because the frame that
/// pushed it holds its lookup (or a continued resolution's enclosing one holds it) until it pops
/// it; so the stack holds them unretained. Pops match pushes (checked in debug builds).
struct UnsafeStepStack {
    private var buffer = UnsafeGrowableBuffer<Unmanaged<RegistrationEntry>>()

    /// How many registrations are on the path.
    var count: Int { buffer.count }

    /// The registration resolved innermost, if any.
    var last: RegistrationEntry? { buffer.last?.takeUnretainedValue() }

    var all: [RegistrationEntry] {
        (0..<buffer.count).map { buffer[$0].takeUnretainedValue() }
    }

    /// Whether the entry with `id` is on the stack at `start` or above.
    func contains(id: Int, from start: Int = 0) -> Bool {
        buffer.withUnsafeElements { entries in
            guard let base = entries.baseAddress, start < entries.count else { return false }
            for index in start..<entries.count where base[index]._withUnsafeGuaranteedRef({ $0.id }) == id {
                return true
            }
            return false
        }
    }

    mutating func push(_ entry: RegistrationEntry) {
        buffer.append(Unmanaged.passUnretained(entry))
    }

    /// Takes `entry`, which must be the innermost registration (checked in debug builds), off
    /// the path.
    mutating func pop(_ entry: RegistrationEntry) {
        assert(!buffer.isEmpty, "a step popped that was never pushed")
        let popped = buffer.removeLast()
        assert(popped.toOpaque() == Unmanaged.passUnretained(entry).toOpaque(), "a step popped out of order")
    }

    mutating func removeAll() {
        buffer.removeAll()
    }

    mutating func deallocate() {
        buffer.deallocate()
    }
}
