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
final class UnsafeLockBuffer<State>: ManagedBuffer<State, UnsafeLockPrimitives> {
    typealias Primitives = UnsafeLockPrimitives

    static func make(_ initialState: State) -> UnsafeLockBuffer<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { primitives in
                primitives.initialize(to: Primitives())
                var attributes = pthread_mutexattr_t()
                checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
                #if DEBUG
                let type = Int32(PTHREAD_MUTEX_ERRORCHECK)
                #else
                let type = Int32(PTHREAD_MUTEX_DEFAULT)
                #endif
                checkPthread(pthread_mutexattr_settype(&attributes, type), "pthread_mutexattr_settype")
                checkPthread(pthread_mutex_init(mutex(in: primitives), &attributes), "pthread_mutex_init")
                checkPthread(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
                checkPthread(pthread_cond_init(condition(in: primitives), nil), "pthread_cond_init")
            }
            return initialState
        }
        return unsafeDowncast(buffer, to: UnsafeLockBuffer<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { primitives in
            checkPthread(pthread_cond_destroy(Self.condition(in: primitives)), "pthread_cond_destroy")
            checkPthread(pthread_mutex_destroy(Self.mutex(in: primitives)), "pthread_mutex_destroy")
            primitives.deinitialize(count: 1)
        }
    }

    private static func mutex(in primitives: UnsafeMutablePointer<Primitives>) -> UnsafeMutablePointer<pthread_mutex_t> {
        field(at: Primitives.mutexOffset, in: primitives)
    }

    private static func condition(in primitives: UnsafeMutablePointer<Primitives>) -> UnsafeMutablePointer<pthread_cond_t> {
        field(at: Primitives.conditionOffset, in: primitives)
    }

    private static func field<Field>(at offset: Int, in primitives: UnsafeMutablePointer<Primitives>) -> UnsafeMutablePointer<Field> {
        (UnsafeMutableRawPointer(primitives) + offset).assumingMemoryBound(to: Field.self)
    }

    /// Runs `body` with the state under the lock; with `broadcasting`, then wakes every thread
    /// waiting in ``withLockWaiting(_:_:)``.
    @inline(__always)
    func withLock<Result>(
        _ order: LockOrder, broadcasting: Bool = false, _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitives in
            order.willTake()
            checkPthread(pthread_mutex_lock(Self.mutex(in: primitives)), "pthread_mutex_lock")
            defer {
                if broadcasting { checkPthread(pthread_cond_broadcast(Self.condition(in: primitives)), "pthread_cond_broadcast") }
                order.gaveBack()
                checkPthread(pthread_mutex_unlock(Self.mutex(in: primitives)), "pthread_mutex_unlock")
            }
            return try body(&state.pointee)
        }
    }

    /// Runs `step` under the lock until it is done, giving the lock up between two runs until a
    /// broadcast. The wait happens outside every access to the state, so each run reads what
    /// other threads wrote meanwhile (an access held across the wait would let the compiler keep
    /// what it read before).
    func withLockWaiting<Result>(_ order: LockOrder, _ step: (inout State) throws -> ConditionStep<Result>) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitives in
            order.willTake()
            checkPthread(pthread_mutex_lock(Self.mutex(in: primitives)), "pthread_mutex_lock")
            defer {
                order.gaveBack()
                checkPthread(pthread_mutex_unlock(Self.mutex(in: primitives)), "pthread_mutex_unlock")
            }
            while true {
                switch try step(&state.pointee) {
                case .done(let result):
                    return result
                case .wait:
                    let waited = pthread_cond_wait(Self.condition(in: primitives), Self.mutex(in: primitives))
                    checkPthread(waited, "pthread_cond_wait")
                }
            }
        }
    }
}

/// The mutex and the condition of an ``UnsafeLockBuffer``, with their offsets found once: a
/// key path made in the buffer's generic code would be built again on every lock taken.
struct UnsafeLockPrimitives {
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()

    static let mutexOffset = offset(of: \.mutex)
    static let conditionOffset = offset(of: \.condition)

    private static func offset<Field>(of field: WritableKeyPath<Self, Field>) -> Int {
        guard let offset = MemoryLayout<Self>.offset(of: field) else { preconditionFailure("a stored field has an offset") }
        return offset
    }
}
