#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Bionic)
@preconcurrency import Bionic
#endif

/// State, the pthread mutex that guards it and a condition, in one heap buffer: the two live at
/// an address that never moves, initialized in `make` before their first use and destroyed in
/// `deinit` after their last.
///
/// Invariant: the thread that takes the mutex gives it back, and never takes it again while it
/// holds it. Debug builds make the mutex an error-checking one, so breaking that stops at
/// `checkPthread` instead of deadlocking, and check ``LockOrder`` on every lock taken; every
/// pthread result is checked in every build.
final class UnsafeLockBuffer<State>: ManagedBuffer<State, (mutex: pthread_mutex_t, condition: pthread_cond_t)> {
    static func make(_ initialState: State) -> UnsafeLockBuffer<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { primitives in
                primitives.initialize(to: (pthread_mutex_t(), pthread_cond_t()))
                var attributes = pthread_mutexattr_t()
                checkPthread(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
                #if DEBUG
                let errorChecking = Int32(PTHREAD_MUTEX_ERRORCHECK)
                checkPthread(pthread_mutexattr_settype(&attributes, errorChecking), "pthread_mutexattr_settype")
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
    func withLock<Result>(
        _ order: LockOrder, broadcasting: Bool = false, _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitives in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
                defer {
                    if broadcasting {
                        checkPthread(pthread_cond_broadcast(&primitives.pointee.condition), "pthread_cond_broadcast")
                    }
                    checkPthread(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock")
                }
                return try body(&state.pointee)
            }
        }
    }

    /// Runs `step` under the lock until it is done, giving the lock up between two runs until a
    /// broadcast. The wait is outside every access to the state, so each run reads what other
    /// threads wrote meanwhile (across an access, the compiler may keep what it read before).
    func withLockWaiting<Result>(
        _ order: LockOrder, _ step: (inout State) throws -> ConditionStep<Result>
    ) rethrows -> Result {
        try withUnsafeMutablePointers { state, primitives in
            try order.whileHeld {
                checkPthread(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
                defer { checkPthread(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock") }
                while true {
                    if case .done(let result) = try step(&state.pointee) { return result }
                    let waited = pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex)
                    checkPthread(waited, "pthread_cond_wait")
                }
            }
        }
    }
}

/// Each thread's resolution, in thread-specific storage: the innermost one running on the
/// thread, or an idle one kept for its next call (`state.isActive` tells them apart).
///
/// Invariant: the slot holds one counted reference to what it points at, taken when the slot
/// is pointed at it and given back when it is pointed elsewhere or the thread exits; callers
/// get counted references and owe the slot nothing.
enum ResolutionSlot {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Released at thread exit; the argument is optional on some platforms only.
        let created = pthread_key_create(&key) { pointer in
            (pointer as UnsafeMutableRawPointer?).map { Unmanaged<Resolution>.fromOpaque($0).release() }
        }
        checkPthread(created, "pthread_key_create")
        return key
    }()

    /// The slot's key, for a caller that asks ``isRunning(key:)`` on every call: reading the
    /// lazily made static `key` costs a `swift_once` each time.
    struct Key: Sendable { fileprivate let raw: pthread_key_t }
    static var currentKey: Key { Key(raw: key) }

    /// What the slot points at, if anything.
    static var current: Resolution? {
        pthread_getspecific(key).map { Unmanaged<Resolution>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Points the slot at `resolution` (or at nothing), letting go of what it pointed at.
    static func point(at resolution: Resolution?) {
        let previous = pthread_getspecific(key)
        let next = resolution.map { Unmanaged.passRetained($0).toOpaque() }
        checkPthread(pthread_setspecific(key, next), "pthread_setspecific")
        previous.map { Unmanaged<Resolution>.fromOpaque($0).release() }
    }

    /// Whether a resolution runs on this thread; `key` is the ``currentKey``.
    static func isRunning(key: Key) -> Bool {
        guard let held = pthread_getspecific(key.raw) else { return false }
        // The slot holds its reference for as long as this reads it.
        return Unmanaged<Resolution>.fromOpaque(held)._withUnsafeGuaranteedRef { $0.state.isActive }
    }

    /// Whether nothing but the slot and `resolution` (a variable of the caller's that refers to
    /// what the slot points at) holds that resolution: whether a resolver of it escaped.
    static func holdsOnly(_ resolution: inout Resolution) -> Bool {
        precondition(holds(resolution), "only the slot's resolution is asked whether it escaped")
        // The slot's reference is given back for the check and taken again: `resolution` keeps
        // the object alive meanwhile.
        Unmanaged.passUnretained(resolution).release()
        defer { _ = Unmanaged.passUnretained(resolution).retain() }
        return isKnownUniquelyReferenced(&resolution)
    }

    /// Whether the slot points at `resolution`; `key` is the ``currentKey``.
    static func holds(_ resolution: Resolution, key: Key = currentKey) -> Bool {
        pthread_getspecific(key.raw) == Unmanaged.passUnretained(resolution).toOpaque()
    }
}

/// How close the calling thread is to the end of its stack, so that a deep resolution stops with
/// an error before it overflows (a debug build fills a 512 KB stack in about 100 factories).
///
/// Invariant: a floor is an address inside the calling thread's stack, `margin` bytes above its
/// lowest address (stacks grow down on every platform Swift runs on), or 0 when unknown (debug
/// builds check that the calling frame is above it); `isNearlyFull(above:)` is only asked with
/// the floor of the thread that asks. A frame outside the stack's last `margin` bytes (Address
/// Sanitizer's fake stack, for one) counts as not full: the check then errs towards the
/// 1,000-level limit, never towards a false error.
enum UnsafeStackBounds {
    /// What a resolution leaves free for the factory it calls and what that factory calls.
    static let margin: UInt = 128 * 1024

    /// The address below which the calling thread's stack is nearly full; 0 when unknown.
    static func currentThreadFloor() -> UInt {
        #if canImport(Darwin)
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let lowest = top > size ? top - size : 0
        #elseif os(Linux)
        var attributes = pthread_attr_t()
        guard let getAttributes = linuxGetAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { checkPthread(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
        var (address, stackSize): (UnsafeMutableRawPointer?, Int) = (nil, 0)
        guard pthread_attr_getstack(&attributes, &address, &stackSize) == 0 else { return 0 }
        let lowest = UInt(bitPattern: address), size = UInt(stackSize)
        #else
        let lowest: UInt = 0, size: UInt = 0
        #endif
        guard lowest > 0, size > margin * 2 else { return 0 }
        let frame = currentFrame()
        assert(frame < lowest || frame >= lowest + size || frame > lowest + margin,
            "a thread's floor is in its own stack")
        return lowest + margin
    }

    #if os(Linux)
    /// glibc's `pthread_getattr_np` (a GNU extension the Glibc module does not import), if any.
    private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private static let linuxGetAttributes: GetAttributes? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(symbol, to: GetAttributes.self)
    }()
    #endif

    /// Whether the calling frame is in the last `margin` bytes of the stack whose floor is `floor`.
    static func isNearlyFull(above floor: UInt) -> Bool {
        guard floor != 0 else { return false }
        let frame = currentFrame()
        return frame < floor && frame >= floor - margin
    }

    private static func currentFrame() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// A number that tells the calling thread from every other running thread (a `pthread_t` is one
/// word on every platform: an integer on Linux, a pointer elsewhere).
func currentThreadIdentity() -> UInt { withUnsafeBytes(of: pthread_self()) { $0.load(as: UInt.self) } }
