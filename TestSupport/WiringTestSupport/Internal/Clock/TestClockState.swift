extension WiringTestClock {
    /// A task asleep on the clock.
    struct Sleeper {
        let deadline: Instant
        /// When it went to sleep, among all the clock's sleepers: the order of equal deadlines.
        let arrival: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A task waiting for enough sleepers.
    struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    /// What a task going to sleep does next.
    enum Suspension {
        /// The deadline is reached already: return at once.
        case due
        /// The task was cancelled before it could sleep: throw.
        case cancelled
        /// It sleeps; these waiters have the sleepers they waited for.
        case asleep(wokenWaiters: [CheckedContinuation<Void, Never>])
    }

    /// The clock's time and who waits on it, under the clock's lock. Continuations are resumed
    /// by the callers, after the lock is given up.
    struct State {
        private(set) var now: Instant
        private(set) var sleepers: [Int: Sleeper] = [:]
        private var waiters: [Int: Waiter] = [:]
        /// Sleeps and waits whose task was cancelled before they suspended: they end at once
        /// when they try to.
        private var cancelledEarly: Set<Int> = []
        /// Sleeps the clock has resumed whose task has not run since: until it does, it cannot
        /// have gone back to sleep, so the clock gives it more turns before the next deadline.
        private(set) var wokenNotYetRunning: Set<Int> = []
        /// The threads the tasks the clock last woke ran on once resumed, where the platform can
        /// tell whether they still run (see `RunningThread`).
        private(set) var wokenThreads: Set<Int> = []
        private var nextID = 0
        private var nextArrival = 0

        init(now: Instant) {
            self.now = now
        }

        /// The earliest deadline of the tasks asleep now, if any are.
        var nextDeadline: Instant? {
            sleepers.values.lazy.map(\.deadline).min()
        }

        /// A new identity for one sleep or wait.
        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        /// Puts a task to sleep until `deadline`, unless it is due or cancelled already.
        mutating func suspend(
            _ id: Int, until deadline: Instant, continuation: CheckedContinuation<Void, any Error>
        ) -> Suspension {
            if cancelledEarly.remove(id) != nil { return .cancelled }
            if deadline <= now { return .due }
            nextArrival += 1
            sleepers[id] = Sleeper(deadline: deadline, arrival: nextArrival, continuation: continuation)
            let satisfied = waiters.filter { $0.value.count <= sleepers.count }
            for id in satisfied.keys { waiters[id] = nil }
            return .asleep(wokenWaiters: satisfied.values.map(\.continuation))
        }

        /// Makes a task wait for `count` sleepers; `false` when it need not wait.
        mutating func wait(_ id: Int, for count: Int, continuation: CheckedContinuation<Void, Never>) -> Bool {
            if cancelledEarly.remove(id) != nil || sleepers.count >= count { return false }
            waiters[id] = Waiter(count: count, continuation: continuation)
            return true
        }

        /// Takes out the sleep `id`, whose task is cancelled, to be resumed; or, if it has not
        /// suspended yet, marks it to end as soon as it tries.
        mutating func cancelSleep(_ id: Int) -> CheckedContinuation<Void, any Error>? {
            if let sleeper = sleepers.removeValue(forKey: id) { return sleeper.continuation }
            cancelledEarly.insert(id)
            return nil
        }

        /// Takes out the wait `id`, whose task is cancelled, as ``cancelSleep(_:)`` does a sleep.
        mutating func cancelWait(_ id: Int) -> CheckedContinuation<Void, Never>? {
            if let waiter = waiters.removeValue(forKey: id) { return waiter.continuation }
            cancelledEarly.insert(id)
            return nil
        }

        /// Forgets a sleep or wait that has ended, in its own task: that task runs again, and a
        /// cancellation that came after it was resumed leaves no mark behind.
        mutating func forget(_ id: Int, runningOn thread: Int?) {
            cancelledEarly.remove(id)
            if wokenNotYetRunning.remove(id) != nil, let thread { wokenThreads.insert(thread) }
        }

        /// Takes out the sleepers of the earliest deadline, in the order they went to sleep, and
        /// moves the time to that deadline; or, when none is due by `limit`, moves the time to
        /// `limit` and returns `nil`. In one go, so that no sleeper can come in between, due by
        /// `limit` and left behind. Without a limit, the earliest deadline is due however late.
        mutating func wakeEarliest(notAfter limit: Instant?) -> [CheckedContinuation<Void, any Error>]? {
            guard let deadline = nextDeadline, limit.map({ deadline <= $0 }) ?? true else {
                if let limit, limit > now { now = limit }
                return nil
            }
            if deadline > now { now = deadline }
            let due = sleepers.filter { $0.value.deadline == deadline }
            wokenThreads = []
            for id in due.keys {
                sleepers[id] = nil
                wokenNotYetRunning.insert(id)
            }
            return due.values.sorted { $0.arrival < $1.arrival }.map(\.continuation)
        }
    }
}
