/// The instance a container keeps for one of its registrations of a stored scope.
///
/// Invariant: read and written only under the lock of the container that owns the
/// registration, so the dynamic exclusivity checks of a class property would only repeat the
/// lock's work; without them a cached singleton resolves in 422 instructions instead of 505
/// (callgrind, release build). Debug builds check that the calling thread holds a lock.
package final class UnsafeInstanceSlot: @unchecked Sendable {
    @exclusivity(unchecked) private var storedBox: AnyObject?

    package init() {}

    /// The kept instance's box, if it was made.
    @inline(__always)
    package var box: AnyObject? {
        get {
            checkLocked()
            return storedBox
        }
        set {
            checkLocked()
            storedBox = newValue
        }
    }

    @inline(__always)
    private func checkLocked() {
        #if DEBUG
        precondition(UnsafeMutex.heldByCurrentThread > 0, "a kept instance was read or written outside its container's lock")
        #endif
    }
}
