import Dispatch
/// Where a lock stands in the one order in which a thread may take locks: a thread holding a
/// lock takes only locks of a higher rank (or, for ranks that allow it, of the same rank). Debug
/// builds check it on every lock taken and stop, naming both locks, where it is broken; with
/// one order no two threads can each hold what the other waits for.
///
/// Most locks guard one concern and take nothing inside: they are `.leaf`. The few that are
/// held while other code runs have a rank of their own, below every lock that code may take.
package enum LockRank: Int, Sendable {
    /// A lazy's gate, held while it resolves its service: a whole resolution runs inside it, and
    /// a lazy read by a factory nests one gate in another.
    case lazyValue = 0
    /// A test container's trace history, held while the recorders' steps are replayed into it.
    case traceHistory = 5
    /// The running-test hooks the helper modules install, held while each layer stack's copy of
    /// them is updated.
    case runningTests = 10
    /// A test container's layer stack.
    case layerStack = 20
    /// A container's registrations and kept instances; the variants a registration keeps per
    /// runtime arguments are read under it.
    case container = 100
    /// The default: nothing else is taken while it is held.
    case leaf = 1_000

    /// Whether a thread holding a lock of this rank may take another of the same rank.
    var nests: Bool { self == .lazyValue }
}

/// State guarded by a mutex.
package struct LockedState<State>: @unchecked Sendable {
    private let buffer: UnsafeMutexBuffer<State>
    private let order: UnsafeMutex.Order

    package init(_ initialState: State, rank: LockRank = .leaf, file: StaticString = #fileID, line: UInt = #line) {
        buffer = UnsafeMutexBuffer.make(initialState)
        order = UnsafeMutex.Order(rank: rank, file: file, line: line, lock: buffer)
    }

    /// Which lock this is, for debug checks that state is used under it.
    package var identity: ObjectIdentifier { ObjectIdentifier(buffer) }

    /// Runs `body` with the state, under the lock.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(order, body)
    }
}

/// State guarded by a mutex, with a condition to wait on until another thread changes it.
package final class ConditionState<State>: @unchecked Sendable {
    private let buffer: UnsafeConditionBuffer<State>
    private let order: UnsafeMutex.Order

    package init(_ initialState: State, rank: LockRank = .leaf, file: StaticString = #fileID, line: UInt = #line) {
        buffer = UnsafeConditionBuffer.make(initialState)
        order = UnsafeMutex.Order(rank: rank, file: file, line: line, lock: buffer)
    }

    /// Runs `body` under the lock; with `broadcasting`, then wakes every thread waiting in
    /// ``withLockWaiting(_:)``.
    package func withLock<Result>(broadcasting: Bool = false, _ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(order, broadcasting: broadcasting, body)
    }

    /// Runs `step` under the lock until it says it is done; when it says to wait, gives the
    /// lock up until another thread changes the state with `withLock(broadcasting: true)`, then
    /// runs it again on the state as it is then.
    package func withLockWaiting<Result>(_ step: (inout State) throws -> ConditionStep<Result>) rethrows -> Result {
        try buffer.withLockWaiting(order, step)
    }
}

/// What one run of a ``ConditionState/withLockWaiting(_:)`` step decided.
package enum ConditionStep<Result> {
    /// Done, with this result.
    case done(Result)
    /// Wait for a change, then run the step again.
    case wait
}

/// A mutex the owning thread may take again, for work that re-enters itself on one thread.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeRecursiveMutex()
    private let order: UnsafeMutex.Order

    package init(rank: LockRank, file: StaticString = #fileID, line: UInt = #line) {
        order = UnsafeMutex.Order(rank: rank, file: file, line: line, lock: mutex)
    }

    package func lock() { mutex.lock(order) }

    package func unlock() { mutex.unlock(order) }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Whether the caller runs on the main queue, which is the main actor's executor. This is not
/// always the main thread: after `dispatchMain()` a worker thread drains the main queue.
package enum MainQueue {
    package static var isCurrent: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
}
