/// The instance a container keeps for one of its registrations of a stored scope: read and
/// written only under the lock of the container that owns the registration, which debug builds
/// check (any lock, until the container that adds the registration names its own with
/// `guarded(by:)`).
package final class InstanceSlot: @unchecked Sendable {
    private var storedBox: AnyObject?
    #if DEBUG
    private var guardingLock: ObjectIdentifier?
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
                LockOrder.holds(guardingLock),
                "a kept instance was read or written without its container's lock")
        } else {
            precondition(LockOrder.holdsAnyLock, "a kept instance was read or written outside any lock")
        }
        #endif
    }
}
