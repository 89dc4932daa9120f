#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Bionic)
@preconcurrency import Bionic
#endif

/// How close the calling thread is to the end of its stack, so that a deep resolution stops
/// with an error before it overflows: a secondary thread's stack on Apple platforms is 512 KB,
/// which a debug build fills after about a hundred nested factories.
///
/// Invariant: `floor` is an address inside the calling thread's stack, `margin` bytes above
/// its lowest address (stacks grow down on every platform Swift runs on), or 0 when unknown;
/// `isNearlyFull(above:)` is only asked with the floor of the thread that asks. A frame found
/// outside the stack's last `margin` bytes (Address Sanitizer's fake stack, for one) counts as
/// not full: the check then errs towards the 1,000-level limit, never towards a false error.
enum UnsafeStackBounds {
    /// What a resolution leaves free for the factory it calls and what that factory calls.
    static let margin: UInt = 128 * 1024

    /// The address below which the calling thread's stack is nearly full; 0 when unknown.
    static func currentThreadFloor() -> UInt {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        guard top > size + margin else { return 0 }
        let floor = top - size + margin
        assert(isInside(floor, stackFrom: top - size, size: size))
        return floor
        #elseif os(Linux)
        guard let getAttributes = linuxGetAttributes else { return 0 }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { checkPthread(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > Int(margin) * 2 else { return 0 }
        let floor = UInt(bitPattern: address) + margin
        assert(isInside(floor, stackFrom: UInt(bitPattern: address), size: UInt(size)))
        return floor
        #else
        return 0
        #endif
    }

    /// Whether `floor` lies in the stack, and the calling frame above it: what the floor of the
    /// calling thread must satisfy, outside Address Sanitizer's fake stacks.
    private static func isInside(_ floor: UInt, stackFrom lowest: UInt, size: UInt) -> Bool {
        var marker: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let frameInStack = frame >= lowest && frame < lowest + size
        return floor > lowest && floor < lowest + size && (!frameInStack || frame > floor)
    }

    #if os(Linux)
    /// glibc's `pthread_getattr_np`, which the Glibc module does not import (it is a GNU
    /// extension), looked up by name; `nil` where the C library has none.
    private static let linuxGetAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
        // RTLD_DEFAULT: every loaded library, in load order.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
    }()
    #endif

    /// Whether the calling frame is in the last `margin` bytes of the stack whose floor is
    /// `floor`, that is, the stack is nearly full.
    static func isNearlyFull(above floor: UInt) -> Bool {
        guard floor != 0 else { return false }
        var marker: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return frame < floor && frame >= floor - margin
    }
}
