/// The instance a container keeps for one of its registrations of a stored scope.
///
/// Invariant: read and written only under the lock of the container that owns the
/// registration, so the dynamic exclusivity checks of a class property would only repeat the
/// lock's work; without them a cached singleton resolves in 422 instructions instead of 505
/// (callgrind, release build). Debug builds check that the calling thread holds that lock (any
/// lock, until the container that adds the registration names its own with `guarded(by:)`).
package final class UnsafeInstanceSlot: @unchecked Sendable {
    @exclusivity(unchecked) private var storedBox: AnyObject?
    #if DEBUG
    @exclusivity(unchecked) private var guardingLock: ObjectIdentifier?
    #endif

    package init() {}

    /// Names the lock that guards this slot from now on: its container's, which holds it while
    /// adding the registration.
    package func guarded(by lock: ObjectIdentifier) {
        #if DEBUG
        checkLocked()
        guardingLock = lock
        #endif
    }

    /// The kept instance's box, if it was made.
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

    private func checkLocked() {
        #if DEBUG
        if let guardingLock {
            precondition(
                LockingThread.holds(guardingLock),
                "a kept instance was read or written without its container's lock")
        } else {
            precondition(LockingThread.holdsAnyLock, "a kept instance was read or written outside any lock")
        }
        #endif
    }
}
