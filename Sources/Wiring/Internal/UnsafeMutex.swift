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
func checkPthread(_ result: Int32, _ call: StaticString) {
    precondition(result == 0, "\(call) failed with error \(result)")
}

/// State, the pthread mutex that guards it and a condition to wait on, in one heap buffer: the
/// mutex and the condition live at addresses that never move, initialized in `make` before
/// their first use and destroyed in `deinit` after their last.
///
/// Invariant: the thread that takes the mutex gives it back, and never takes it again while it
/// holds it. Debug builds make the mutex an error-checking one, so breaking that stops at
/// `checkPthread` instead of deadlocking, and check ``LockOrder`` on every lock taken; every
/// pthread result is checked in every build.
final class UnsafeLockBuffer<State>: ManagedBuffer<State, UInt64> {
    /// Words of the buffer's tail: the mutex first, then the condition. (Offsets found with key
    /// paths or kept in static properties would cost work or a `swift_once` on every lock taken.)
    private static var mutexWords: Int { (MemoryLayout<pthread_mutex_t>.size + 7) / 8 }
    private static var conditionWords: Int { (MemoryLayout<pthread_cond_t>.size + 7) / 8 }

    static func make(_ initialState: State) -> UnsafeLockBuffer<State> {
        precondition(
            MemoryLayout<pthread_mutex_t>.alignment <= 8 && MemoryLayout<pthread_cond_t>.alignment <= 8,
            "a mutex and a condition fit the buffer's 8-byte words")
        let buffer = create(minimumCapacity: mutexWords + conditionWords) { buffer in
            buffer.withUnsafeMutablePointerToElements { words in
                let raw = UnsafeMutableRawPointer(words)
                raw.initializeMemory(as: pthread_mutex_t.self, to: pthread_mutex_t())
                (raw + mutexWords * 8).initializeMemory(as: pthread_cond_t.self, to: pthread_cond_t())
                var attributes = pthread_mutexattr_t()
                checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
                #if DEBUG
                let type = Int32(PTHREAD_MUTEX_ERRORCHECK)
                #else
                let type = Int32(PTHREAD_MUTEX_DEFAULT)
                #endif
                checkPthread(pthread_mutexattr_settype(&attributes, type), "pthread_mutexattr_settype")
                checkPthread(pthread_mutex_init(mutex(in: words), &attributes), "pthread_mutex_init")
                checkPthread(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
                checkPthread(pthread_cond_init(condition(in: words), nil), "pthread_cond_init")
            }
            return initialState
        }
        return unsafeDowncast(buffer, to: UnsafeLockBuffer<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { words in
            checkPthread(pthread_cond_destroy(Self.condition(in: words)), "pthread_cond_destroy")
            checkPthread(pthread_mutex_destroy(Self.mutex(in: words)), "pthread_mutex_destroy")
            Self.condition(in: words).deinitialize(count: 1)
            Self.mutex(in: words).deinitialize(count: 1)
        }
    }

    private static func mutex(in words: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<pthread_mutex_t> {
        UnsafeMutableRawPointer(words).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    private static func condition(in words: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<pthread_cond_t> {
        (UnsafeMutableRawPointer(words) + mutexWords * 8).assumingMemoryBound(to: pthread_cond_t.self)
    }

    /// Runs `body` with the state under the lock; with `broadcasting`, then wakes every thread
    /// waiting in ``withLockWaiting(_:_:)``.
    @inline(__always)
    func withLock<Result>(
        _ order: LockOrder, broadcasting: Bool = false, _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, words in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(Self.mutex(in: words)), "pthread_mutex_lock")
                defer {
                    if broadcasting { checkPthread(pthread_cond_broadcast(Self.condition(in: words)), "pthread_cond_broadcast") }
                    checkPthread(pthread_mutex_unlock(Self.mutex(in: words)), "pthread_mutex_unlock")
                }
                return try body(&state.pointee)
            }
        }
    }

    /// Runs `step` under the lock until it is done, giving the lock up between two runs until a
    /// broadcast. The wait happens outside every access to the state, so each run reads what
    /// other threads wrote meanwhile (an access held across the wait would let the compiler keep
    /// what it read before).
    func withLockWaiting<Result>(_ order: LockOrder, _ step: (inout State) throws -> ConditionStep<Result>) rethrows -> Result {
        try withUnsafeMutablePointers { state, words in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(Self.mutex(in: words)), "pthread_mutex_lock")
                defer { checkPthread(pthread_mutex_unlock(Self.mutex(in: words)), "pthread_mutex_unlock") }
                while true {
                    switch try step(&state.pointee) {
                    case .done(let result):
                        return result
                    case .wait:
                        checkPthread(pthread_cond_wait(Self.condition(in: words), Self.mutex(in: words)), "pthread_cond_wait")
                    }
                }
            }
        }
    }
}
