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
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        checkPthread(pthread_key_create(&key) { Unmanaged<Resolution>.fromOpaque($0).release() }, "pthread_key_create")
        #else
        checkPthread(pthread_key_create(&key) { $0.map { Unmanaged<Resolution>.fromOpaque($0).release() } }, "pthread_key_create")
        #endif
        return key
    }()

    /// What the slot pointed at, for a frame about to run a call: an idle resolution, whose
    /// reference moved from the slot to the caller (the slot goes on pointing at it), or the
    /// running one, retained for the caller.
    enum Occupant {
        case empty, idle(Resolution), running(Resolution)
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

    /// Points the slot at `resolution`, which the caller's frame holds while it runs, or at nothing.
    static func point(at resolution: Resolution?) {
        checkPthread(pthread_setspecific(key, resolution.map { Unmanaged.passUnretained($0).toOpaque() }), "pthread_setspecific")
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

/// How close the calling thread is to the end of its stack, so that a deep resolution stops
/// with an error before it overflows: a secondary thread's stack on Apple platforms is 512 KB,
/// which a debug build fills after about a hundred nested factories.
///
/// Invariant: `floor` is an address inside the calling thread's stack, `margin` bytes above
/// its lowest address (stacks grow down on every platform Swift runs on), or 0 when unknown;
/// `isNearlyFull(above:)` is only asked with the floor of the thread that asks (debug builds
/// check, when they find a floor, that the calling frame is above it). A frame outside the stack's last `margin` bytes
/// (Address Sanitizer's fake stack, for one) counts as not full: the check then errs towards
/// the 1,000-level limit, never towards a false error.
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
        var address: UnsafeMutableRawPointer?
        var stackSize = 0
        guard pthread_attr_getstack(&attributes, &address, &stackSize) == 0 else { return 0 }
        let lowest = UInt(bitPattern: address), size = UInt(stackSize)
        #else
        let lowest: UInt = 0, size: UInt = 0
        #endif
        guard lowest > 0, size > margin * 2 else { return 0 }
        let frame = currentFrame()
        assert(frame < lowest || frame >= lowest + size || frame > lowest + margin, "a thread's floor is in its own stack")
        return lowest + margin
    }

    #if os(Linux)
    /// glibc's `pthread_getattr_np`, which the Glibc module does not import (it is a GNU
    /// extension), looked up by name; `nil` where the C library has none.
    private static let linuxGetAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
        // RTLD_DEFAULT: every loaded library, in load order.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
    }()
    #endif

    /// Whether the calling frame is in the last `margin` bytes of the stack whose floor is
    /// `floor`, that is, the stack is nearly full.
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

/// A number that tells the calling thread from every other running thread.
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(truncatingIfNeeded: pthread_self())
    #endif
}
