/// Which task runs a piece of async code: what tells an async factory's own task from the tasks
/// it starts, which inherit its task-locals alike.
///
/// A mark names its task by the address of the task's record, read without keeping the task,
/// and only while ``marking(_:)`` runs that task's code: the address is that task's then, and no
/// other's (it may be a later task's once the task ended, which is why the mark is forgotten as
/// `marking` returns, in the task, before it can end). No caller owes it anything.
final class TaskMark: Sendable {
    private let address = LockedState<UInt?>(nil)

    /// Whether the code asking runs in the marked task, while it is marked.
    var isCurrentTask: Bool {
        guard let current = Self.currentAddress else { return false }
        return address.withLock { $0 == current }
    }

    /// Runs `body` with this mark naming the task that runs it, and forgets it as `body` returns.
    nonisolated(nonsending)
    func marking<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        address.withLock { $0 = Self.currentAddress }
        defer { address.withLock { $0 = nil } }
        return try await body()
    }

    /// The address of the running task's record; `nil` outside any task.
    private static var currentAddress: UInt? {
        withUnsafeCurrentTask { task in
            task.map { task in
                // The task is one reference to its record, as the cast reads it.
                assert(MemoryLayout<UnsafeCurrentTask>.size == MemoryLayout<UInt>.size)
                return unsafeBitCast(task, to: UInt.self)
            }
        }
    }
}
