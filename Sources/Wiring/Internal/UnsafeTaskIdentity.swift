/// Which task runs: what tells an async factory's own task from the tasks it starts, which
/// inherit its task-locals alike.
///
/// An identity is the address of the task's record, read without keeping the task: it is that
/// task's for as long as the task runs, and may be a later task's once it ended. The one holder
/// elsewhere, `RunningFactory` (AsyncResolver.swift), keeps the identity of the task an async
/// factory runs in and compares it only while the factory runs: it forgets it when the factory
/// returns, in that task, before the task can end.
struct TaskIdentity: Equatable, Sendable {
    private let address: UInt

    /// The task running this code; `nil` outside any task.
    static var current: TaskIdentity? {
        withUnsafeCurrentTask { task in
            task.map { task in
                // The task is one reference to its record, as the cast reads it.
                assert(MemoryLayout<UnsafeCurrentTask>.size == MemoryLayout<UInt>.size)
                return TaskIdentity(address: unsafeBitCast(task, to: UInt.self))
            }
        }
    }
}
