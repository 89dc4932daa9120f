#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Bionic)
@preconcurrency import Bionic
#endif

/// Each thread's pointer to its resolution, in thread-specific storage, which holds raw pointers.
///
/// Invariant: the slot is empty, or points at the thread's innermost running resolution (which
/// the frame running it holds; the slot's pointer is not counted), or at an idle resolution
/// that the slot owns (+1, released when the thread exits). `isActive` tells the two apart.
/// Debug builds check, when a frame gives its resolution back, that the slot points at it.
enum UnsafeResolutionSlot {
    private static let key = makeKeyReleasingAtThreadExit()

    /// A thread-specific key whose value, when set, is an object retained once (+1), released
    /// when its thread exits.
    fileprivate static func makeKeyReleasingAtThreadExit() -> pthread_key_t {
        var key = pthread_key_t()
        #if canImport(Darwin)
        checkPthread(pthread_key_create(&key) { Unmanaged<AnyObject>.fromOpaque($0).release() }, "pthread_key_create")
        #else
        checkPthread(
            pthread_key_create(&key) { raw in raw.map { Unmanaged<AnyObject>.fromOpaque($0).release() } },
            "pthread_key_create")
        #endif
        return key
    }

    /// What the slot pointed at, for a frame about to run a call.
    enum Occupant {
        case empty
        /// An idle resolution, whose reference moved from the slot to the caller; the slot goes
        /// on pointing at it.
        case idle(Resolution)
        /// The running resolution, retained for the caller.
        case running(Resolution)
    }

    /// Takes what the slot points at for a call about to run on this thread.
    static func take() -> Occupant {
        guard let raw = pthread_getspecific(key) else { return .empty }
        let held = Unmanaged<Resolution>.fromOpaque(raw)
        if _slowPath(held._withUnsafeGuaranteedRef { $0.state.isActive }) { return .running(held.takeUnretainedValue()) }
        return .idle(held.takeRetainedValue())
    }

    /// Whether the slot points at `resolution`.
    static func holds(_ resolution: Resolution) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(resolution).toOpaque()
    }

    /// Points the slot at `resolution`, which the caller's frame holds while it runs (or at
    /// nothing).
    static func point(at resolution: Resolution?) {
        checkPthread(
            pthread_setspecific(key, resolution.map { Unmanaged.passUnretained($0).toOpaque() }), "pthread_setspecific")
    }

    /// Gives the frame's reference to a resolution that is done back to the slot, which points at
    /// it already, to keep for the thread's next call.
    static func keepIdle(_ resolution: __owned Resolution) {
        assert(holds(resolution), "a thread keeps only the resolution its slot points at")
        assert(!resolution.state.isActive, "a thread keeps only an idle resolution")
        // The frame's reference becomes the slot's: retained here, released as it ends.
        _ = Unmanaged.passRetained(consume resolution)
    }

    /// Runs `body` with the slot pointing at `resolution`, then points it back at what it did.
    static func withOccupant<Result>(_ resolution: Resolution, _ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(key)
        checkPthread(pthread_setspecific(key, Unmanaged.passUnretained(resolution).toOpaque()), "pthread_setspecific")
        defer { checkPthread(pthread_setspecific(key, previous), "pthread_setspecific") }
        return try body()
    }
}

/// An object of each thread's own, made on its first use on that thread and released when the
/// thread exits: the thread-specific slot holds it (+1).
final class UnsafeThreadLocal<Object: AnyObject>: Sendable {
    private let key = UnsafeResolutionSlot.makeKeyReleasingAtThreadExit()
    private let make: @Sendable () -> Object

    init(_ make: @escaping @Sendable () -> Object) {
        self.make = make
    }

    /// The calling thread's object.
    var current: Object {
        if let raw = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue() }
        let made = make()
        checkPthread(pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque()), "pthread_setspecific")
        return made
    }
}
