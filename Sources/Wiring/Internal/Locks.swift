import Dispatch
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Bionic)
@preconcurrency import Bionic
#endif

/// Stops on a failed pthread call: a lock that cannot be taken or given back leaves nothing
/// safe to do.
@inline(__always)
func checkPthread(_ result: Int32, _ call: StaticString) {
    precondition(result == 0, "\(call) failed with error \(result)")
}

/// State guarded by a mutex whose address never moves: the lock lives in the tail of a heap
/// buffer, so it is never copied or passed by `&` from a stored `var`.
package struct LockedState<State>: @unchecked Sendable {
    private final class Buffer: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { checkPthread(pthread_mutex_destroy($0), "pthread_mutex_destroy") }
        }
    }

    private let buffer: ManagedBuffer<State, pthread_mutex_t>

    package init(_ initialState: State) {
        buffer = Buffer.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { lock in
                lock.initialize(to: pthread_mutex_t())
                checkPthread(pthread_mutex_init(lock, nil), "pthread_mutex_init")
            }
            return initialState
        }
    }

    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, lock in
            checkPthread(pthread_mutex_lock(lock), "pthread_mutex_lock")
            defer { checkPthread(pthread_mutex_unlock(lock), "pthread_mutex_unlock") }
            return try body(&state.pointee)
        }
    }
}

/// State guarded by a mutex, with a condition to wait on until another thread changes it.
package final class ConditionState<State>: @unchecked Sendable {
    private final class Buffer: ManagedBuffer<State, (mutex: pthread_mutex_t, condition: pthread_cond_t)> {
        deinit {
            withUnsafeMutablePointerToElements { pair in
                checkPthread(pthread_cond_destroy(&pair.pointee.condition), "pthread_cond_destroy")
                checkPthread(pthread_mutex_destroy(&pair.pointee.mutex), "pthread_mutex_destroy")
            }
        }
    }

    private let buffer: ManagedBuffer<State, (mutex: pthread_mutex_t, condition: pthread_cond_t)>

    package init(_ initialState: State) {
        buffer = Buffer.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { pair in
                pair.initialize(to: (pthread_mutex_t(), pthread_cond_t()))
                checkPthread(pthread_mutex_init(&pair.pointee.mutex, nil), "pthread_mutex_init")
                checkPthread(pthread_cond_init(&pair.pointee.condition, nil), "pthread_cond_init")
            }
            return initialState
        }
    }

    /// Runs `body` under the lock. `body` may call `wait()` on the handle it gets, which gives
    /// the lock up until another thread calls `broadcast()`.
    package func withLock<Result>(_ body: (inout State, Waiter) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, pair in
            checkPthread(pthread_mutex_lock(&pair.pointee.mutex), "pthread_mutex_lock")
            defer { checkPthread(pthread_mutex_unlock(&pair.pointee.mutex), "pthread_mutex_unlock") }
            return try body(&state.pointee, Waiter(pair: pair))
        }
    }

    /// Waits on, or wakes, the condition of a locked ``ConditionState``.
    package struct Waiter {
        fileprivate let pair: UnsafeMutablePointer<(mutex: pthread_mutex_t, condition: pthread_cond_t)>

        /// Gives the lock up until a broadcast, then takes it again.
        package func wait() {
            checkPthread(pthread_cond_wait(&pair.pointee.condition, &pair.pointee.mutex), "pthread_cond_wait")
        }

        /// Wakes every thread waiting.
        package func broadcast() {
            checkPthread(pthread_cond_broadcast(&pair.pointee.condition), "pthread_cond_broadcast")
        }
    }
}

/// A mutex the owning thread may take again, for work that re-enters itself on one thread.
package final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        checkPthread(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)), "pthread_mutexattr_settype")
        checkPthread(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        checkPthread(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
    }

    deinit {
        checkPthread(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() {
        checkPthread(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    }

    package func unlock() {
        checkPthread(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

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
