/// The registrations being resolved, from the top-level request down, in memory kept between
/// calls (an array checks its uniqueness on every push and pop). Invariant: `entries` holds
/// `count` references, unretained: each entry is alive while it is there, because the frame
/// that pushed it holds its lookup (or a continued resolution's enclosing one holds it) until
/// it pops it. Pops match pushes (checked in debug builds).
struct UnsafeStepStack {
    private var entries: UnsafeMutablePointer<Unmanaged<RegistrationEntry>>?
    private(set) var count = 0
    private var capacity = 0

    private var all: UnsafeBufferPointer<Unmanaged<RegistrationEntry>> { UnsafeBufferPointer(start: entries, count: count) }
    /// The registration resolved innermost, if any.
    var last: RegistrationEntry? { all.last?.takeUnretainedValue() }
    var path: [RegistrationEntry] { all.map { $0.takeUnretainedValue() } }

    /// Whether the entry with `id` is on the stack at `start` or above.
    func contains(id: Int, from start: Int = 0) -> Bool {
        all[min(start, count)...].contains { $0._withUnsafeGuaranteedRef { $0.id } == id }
    }

    mutating func push(_ entry: RegistrationEntry) {
        if count == capacity { grow(&entries, count: count, capacity: &capacity) }
        (entries.unsafelyUnwrapped + count).initialize(to: .passUnretained(entry))
        count += 1
    }

    /// Takes `entry`, which must be the innermost registration, off the path.
    mutating func pop(_ entry: RegistrationEntry) {
        assert(count > 0 && all[count - 1].toOpaque() == Unmanaged.passUnretained(entry).toOpaque(), "a step popped out of order")
        count -= 1
    }

    mutating func removeAll() { count = 0 }

    mutating func deallocate() { entries?.deallocate() }  // the owner's last use
}

/// Moves `count` elements of `storage` to memory twice as large (16 at first), freeing the old.
func grow<Element>(_ storage: inout UnsafeMutablePointer<Element>?, count: Int, capacity: inout Int) {
    capacity = max(16, capacity * 2)
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    if let storage { grown.moveInitialize(from: storage, count: count); storage.deallocate() }
    storage = grown
}
