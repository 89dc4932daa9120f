/// The registrations being resolved, from the top-level request down, in memory kept between
/// calls (an array checks its uniqueness on every push and pop).
///
/// Invariant: `entries` holds `count` counted references, each taken by `push` and given back
/// by `pop` or `removeAll`, so an entry lives while it is on the stack whatever its caller
/// holds. A pop takes the innermost entry only (checked in every build: a pointer comparison).
struct UnsafeStepStack {
    private var entries: UnsafeMutablePointer<Unmanaged<RegistrationEntry>>?
    private(set) var count = 0
    private var capacity = 0

    private var all: UnsafeBufferPointer<Unmanaged<RegistrationEntry>> {
        UnsafeBufferPointer(start: entries, count: count)
    }
    /// The registration resolved innermost, if any.
    var last: RegistrationEntry? { all.last?.takeUnretainedValue() }
    var path: [RegistrationEntry] { all.map { $0.takeUnretainedValue() } }

    /// Whether the entry with `id` is on the stack at `start` or above.
    func contains(id: Int, from start: Int = 0) -> Bool {
        all[min(start, count)...].contains { $0._withUnsafeGuaranteedRef { $0.id } == id }
    }

    mutating func push(_ entry: RegistrationEntry) {
        if count == capacity { grow() }
        (entries! + count).initialize(to: .passRetained(entry))
        count += 1
    }

    /// Takes `entry`, which must be the innermost registration, off the path.
    mutating func pop(_ entry: RegistrationEntry) {
        precondition(count > 0 && all[count - 1].toOpaque() == Unmanaged.passUnretained(entry).toOpaque(),
            "a step popped out of order")
        count -= 1
        entries![count].release()
    }

    mutating func removeAll() {
        for entry in all { entry.release() }
        count = 0
    }

    /// Frees the memory; the owner's last use.
    mutating func deallocate() {
        removeAll()
        entries?.deallocate()
    }

    /// Moves the entries to memory twice as large (16 at first), freeing the old.
    private mutating func grow() {
        capacity = max(16, capacity * 2)
        let grown = UnsafeMutablePointer<Unmanaged<RegistrationEntry>>.allocate(capacity: capacity)
        if let entries {
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
        }
        entries = grown
    }
}
