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

/// A pthread mutex and a condition to wait on.
struct LockPrimitives {
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()
}

/// State, the mutex that guards it and a condition, in one heap buffer: the primitives live at
/// an address that never moves (the buffer's one element), initialized in `make` before their
/// first use and destroyed in `deinit` after their last.
///
/// Invariant: the thread that takes the mutex gives it back, and never takes it again while it
/// holds it. Debug builds make the mutex an error-checking one, so breaking that stops at
/// `checkPthread` instead of deadlocking, and check ``LockOrder`` on every lock taken; every
/// pthread result is checked in every build.
final class UnsafeLockBuffer<State>: ManagedBuffer<State, LockPrimitives> {
    static func make(_ initialState: State) -> UnsafeLockBuffer<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { primitives in
                primitives.initialize(to: LockPrimitives())
                var attributes = pthread_mutexattr_t()
                checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
                #if DEBUG
                checkPthread(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
                #endif
                checkPthread(pthread_mutex_init(&primitives.pointee.mutex, &attributes), "pthread_mutex_init")
                checkPthread(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
                checkPthread(pthread_cond_init(&primitives.pointee.condition, nil), "pthread_cond_init")
            }
            return initialState
        }
        return unsafeDowncast(buffer, to: UnsafeLockBuffer<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { primitives in
            checkPthread(pthread_cond_destroy(&primitives.pointee.condition), "pthread_cond_destroy")
            checkPthread(pthread_mutex_destroy(&primitives.pointee.mutex), "pthread_mutex_destroy")
            primitives.deinitialize(count: 1)
        }
    }

    /// Runs `body` with the state under the lock; with `broadcasting`, then wakes every thread
    /// waiting in ``withLockWaiting(_:_:)``.
    @inline(__always)
    func withLock<Result>(
        _ order: LockOrder, broadcasting: Bool = false, _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitives in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
                defer {
                    if broadcasting { checkPthread(pthread_cond_broadcast(&primitives.pointee.condition), "pthread_cond_broadcast") }
                    checkPthread(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock")
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
        try withUnsafeMutablePointers { state, primitives in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
                defer { checkPthread(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock") }
                while true {
                    switch try step(&state.pointee) {
                    case .done(let result):
                        return result
                    case .wait:
                        let waited = pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex)
                        checkPthread(waited, "pthread_cond_wait")
                    }
                }
            }
        }
    }
}
