import Dispatch
/// State guarded by a mutex.
package struct LockedState<State>: @unchecked Sendable {
    private let buffer: UnsafeMutexBuffer<State>

    package init(_ initialState: State) {
        buffer = UnsafeMutexBuffer.make(initialState)
    }

    /// Runs `body` with the state, under the lock.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(body)
    }
}

/// State guarded by a mutex, with a condition to wait on until another thread changes it.
package final class ConditionState<State>: @unchecked Sendable {
    private let buffer: UnsafeConditionBuffer<State>

    package init(_ initialState: State) {
        buffer = UnsafeConditionBuffer.make(initialState)
    }

    /// Runs `body` under the lock. `body` may call `wait()` on the handle it gets, which gives
    /// the lock up until another thread calls `broadcast()`.
    package func withLock<Result>(_ body: (inout State, Waiter) throws -> Result) rethrows -> Result {
        try buffer.withLock { state, waiter in try body(&state, Waiter(condition: waiter)) }
    }

    /// Waits on, or wakes, the condition of a locked ``ConditionState``.
    package struct Waiter {
        fileprivate let condition: UnsafeConditionBuffer<State>.Waiter

        /// Gives the lock up until a broadcast, then takes it again.
        package func wait() { condition.wait() }

        /// Wakes every thread waiting.
        package func broadcast() { condition.broadcast() }
    }
}

/// A mutex the owning thread may take again, for work that re-enters itself on one thread.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeRecursiveMutex()

    package init() {}

    package func lock() { mutex.lock() }

    package func unlock() { mutex.unlock() }

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
