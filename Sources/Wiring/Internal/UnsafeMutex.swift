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

/// pthread mutexes and conditions live at addresses that never move: in the tail of a heap
/// buffer, or in memory of their own. Each is initialized before its first use and destroyed
/// in `deinit`, after the last.
///
/// Invariant: a lock is given back by the thread that took it, and never taken again by the
/// thread that holds it (except the recursive one). Debug builds make every non-recursive
/// mutex an error-checking one, so breaking that stops at `checkPthread` instead of
/// deadlocking; every pthread result is checked, in every build.
enum UnsafeMutex {
    /// Initializes the mutex at `mutex`: error-checking in debug builds, of `type` otherwise.
    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, recursive: Bool = false) {
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        #if DEBUG
        let type = recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK
        #else
        let type = recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_DEFAULT
        #endif
        checkPthread(pthread_mutexattr_settype(&attributes, Int32(type)), "pthread_mutexattr_settype")
        checkPthread(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        checkPthread(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
    }

    /// A lock's place in the order of ``LockRank``, and where it was made, for the message.
    struct Order {
        #if DEBUG
        let rank: LockRank
        let site: String
        /// The lock itself, for checks that state is read under the one lock that guards it.
        let lock: ObjectIdentifier
        #endif

        init(rank: LockRank, file: StaticString, line: UInt, lock: AnyObject) {
            #if DEBUG
            self.rank = rank
            self.site = "\(file):\(line)"
            self.lock = ObjectIdentifier(lock)
            #endif
        }
    }

    @inline(__always)
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ order: Order) {
        #if DEBUG
        HeldLocks.current.willTake(order)
        #endif
        checkPthread(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    }

    @inline(__always)
    static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ order: Order) {
        #if DEBUG
        HeldLocks.current.gaveBack(order)
        #endif
        checkPthread(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

    #if DEBUG
    /// How many of these mutexes the calling thread holds, for debug checks of state that a
    /// lock guards (see ``UnsafeInstanceSlot``).
    static var heldByCurrentThread: Int { HeldLocks.current.held.count }

    /// Whether the calling thread holds `lock` (see ``Order/lock``).
    static func isHeldByCurrentThread(_ lock: ObjectIdentifier) -> Bool {
        HeldLocks.current.held.contains { $0.lock == lock }
    }

    /// The locks the calling thread holds, innermost last: checked against ``LockRank``'s order
    /// before every lock is taken. One per thread, owned by its thread-specific slot (+1,
    /// released when the thread exits).
    private final class HeldLocks {
        var held: [Order] = []

        private static let key = UnsafeResolutionSlot.makeKeyReleasingAtThreadExit()

        static var current: HeldLocks {
            if let raw = pthread_getspecific(key) { return Unmanaged<HeldLocks>.fromOpaque(raw).takeUnretainedValue() }
            let made = HeldLocks()
            checkPthread(pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque()), "pthread_setspecific")
            return made
        }

        func willTake(_ order: Order) {
            if let innermost = held.last {
                let inOrder = order.rank.rawValue > innermost.rank.rawValue
                    || (order.rank == innermost.rank && order.rank.nests)
                precondition(
                    inOrder,
                    "lock order: the lock made at \(order.site) (\(order.rank)) was taken while holding the one made at "
                        + "\(innermost.site) (\(innermost.rank)); a thread takes locks only in LockRank's order")
            }
            held.append(order)
        }

        func gaveBack(_ order: Order) {
            guard let index = held.lastIndex(where: { $0.lock == order.lock }) else {
                preconditionFailure("a mutex was given back by a thread that did not hold it")
            }
            held.remove(at: index)
        }
    }
    #endif

    static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        checkPthread(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deinitialize(count: 1)
    }
}

/// State and the mutex that guards it, in one heap buffer (see ``UnsafeMutex``).
final class UnsafeMutexBuffer<State>: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ initialState: State) -> UnsafeMutexBuffer<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { UnsafeMutex.initialize($0) }
            return initialState
        }
        return unsafeDowncast(buffer, to: UnsafeMutexBuffer<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { UnsafeMutex.destroy($0) }
    }

    @inline(__always)
    func withLock<Result>(_ order: UnsafeMutex.Order, _ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            UnsafeMutex.lock(mutex, order)
            defer { UnsafeMutex.unlock(mutex, order) }
            return try body(&state.pointee)
        }
    }
}

/// State, its mutex and a condition, in one heap buffer (see ``UnsafeMutex``).
final class UnsafeConditionBuffer<State>: ManagedBuffer<State, UnsafeConditionBuffer<State>.Pair> {
    struct Pair {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
    }

    static func make(_ initialState: State) -> UnsafeConditionBuffer<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { pair in
                pair.initialize(to: Pair())
                UnsafeMutex.initialize(pointer(to: \.mutex, in: pair))
                checkPthread(pthread_cond_init(pointer(to: \.condition, in: pair), nil), "pthread_cond_init")
            }
            return initialState
        }
        return unsafeDowncast(buffer, to: UnsafeConditionBuffer<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { pair in
            checkPthread(pthread_cond_destroy(Self.pointer(to: \.condition, in: pair)), "pthread_cond_destroy")
            UnsafeMutex.destroy(Self.pointer(to: \.mutex, in: pair))
        }
    }

    private static func pointer<Field>(
        to field: WritableKeyPath<Pair, Field>, in pair: UnsafeMutablePointer<Pair>
    ) -> UnsafeMutablePointer<Field> {
        let offset = MemoryLayout<Pair>.offset(of: field).unsafelyUnwrapped
        return (UnsafeMutableRawPointer(pair) + offset).assumingMemoryBound(to: Field.self)
    }

    /// Runs `body` under the lock, then wakes every thread waiting if `broadcasting`.
    func withLock<Result>(
        _ order: UnsafeMutex.Order, broadcasting: Bool, _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, pair in
            let mutex = Self.pointer(to: \.mutex, in: pair)
            UnsafeMutex.lock(mutex, order)
            defer {
                if broadcasting {
                    checkPthread(pthread_cond_broadcast(Self.pointer(to: \.condition, in: pair)), "pthread_cond_broadcast")
                }
                UnsafeMutex.unlock(mutex, order)
            }
            return try body(&state.pointee)
        }
    }

    /// Runs `step` under the lock until it is done, giving the lock up between two runs until a
    /// broadcast. The wait happens outside every access to the state, so each run reads what
    /// other threads wrote meanwhile (an access held across the wait would let the compiler keep
    /// what it read before).
    func withLockWaiting<Result>(
        _ order: UnsafeMutex.Order, _ step: (inout State) throws -> ConditionStep<Result>
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, pair in
            let mutex = Self.pointer(to: \.mutex, in: pair)
            UnsafeMutex.lock(mutex, order)
            defer { UnsafeMutex.unlock(mutex, order) }
            while true {
                switch try step(&state.pointee) {
                case .done(let result):
                    return result
                case .wait:
                    checkPthread(pthread_cond_wait(Self.pointer(to: \.condition, in: pair), mutex), "pthread_cond_wait")
                }
            }
        }
    }
}

/// A mutex the owning thread may take again, in memory of its own (see ``UnsafeMutex``).
final class UnsafeRecursiveMutex {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        UnsafeMutex.initialize(mutex, recursive: true)
    }

    deinit {
        UnsafeMutex.destroy(mutex)
        mutex.deallocate()
    }

    func lock(_ order: UnsafeMutex.Order) { UnsafeMutex.lock(mutex, order) }

    func unlock(_ order: UnsafeMutex.Order) { UnsafeMutex.unlock(mutex, order) }
}
