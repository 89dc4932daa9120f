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

/// State guarded by a mutex whose address never moves: the lock lives in the tail of a heap
/// buffer, so it is never copied or passed by `&` from a stored `var`.
package struct LockedState<State>: @unchecked Sendable {
    private final class Buffer: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let buffer: ManagedBuffer<State, pthread_mutex_t>

    package init(_ initialState: State) {
        buffer = Buffer.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { lock in
                lock.initialize(to: pthread_mutex_t())
                pthread_mutex_init(lock, nil)
            }
            return initialState
        }
    }

    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { state, lock in
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&state.pointee)
        }
    }
}

/// A mutex the owning thread may take again, for work that re-enters itself on one thread
/// (a singleton's factory resolving another singleton) but must exclude other threads.
package final class RecursiveLock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The calling thread, to tell whether a resolver is used on the thread that runs its resolution.
package struct ThreadIdentity: Equatable, Sendable {
    private let raw: UInt

    /// Whether the caller runs on the main queue, which is the main actor's executor. This is
    /// not always the main thread: after `dispatchMain()` a worker thread drains the main queue.
    package static var isMainQueue: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

    package static var current: ThreadIdentity {
        #if canImport(Darwin)
        ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
        #else
        ThreadIdentity(raw: UInt(pthread_self()))
        #endif
    }
}

extension RecursiveLock {
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }
}
