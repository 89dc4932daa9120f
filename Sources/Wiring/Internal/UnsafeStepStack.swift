/// The registrations being resolved, from the top-level request down.
///
/// Invariant: each entry on the stack is alive while it is there, because the frame that
/// pushed it holds its lookup (or a continued resolution's enclosing one holds it) until it pops
/// it; so the stack holds them unretained. Pops match pushes (checked in debug builds).
struct UnsafeStepStack {
    private var entries: ContiguousArray<Unmanaged<RegistrationEntry>> = []

    var count: Int { entries.count }
    /// The registration resolved innermost, if any.
    var last: RegistrationEntry? { entries.last?.takeUnretainedValue() }
    var all: [RegistrationEntry] { entries.map { $0.takeUnretainedValue() } }

    /// Whether the entry with `id` is on the stack at `start` or above.
    func contains(id: Int, from start: Int = 0) -> Bool {
        entries[min(start, entries.count)...].contains { $0._withUnsafeGuaranteedRef { $0.id } == id }
    }

    mutating func push(_ entry: RegistrationEntry) { entries.append(.passUnretained(entry)) }

    /// Takes `entry`, which must be the innermost registration, off the path.
    mutating func pop(_ entry: RegistrationEntry) {
        let popped = entries.removeLast()
        assert(popped.toOpaque() == Unmanaged.passUnretained(entry).toOpaque(), "a step popped out of order")
    }

    mutating func removeAll() {
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }  // empty after a call that ended normally
    }
}
