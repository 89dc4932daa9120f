import Wiring

/// A `Clock` whose time moves only when the test moves it: code that sleeps on it waits, without
/// any real time passing, until the test advances the clock to its deadline.
///
/// ```swift
/// let clock = WiringTestClock()
/// let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers(1)         // the task is asleep
/// await clock.advance(by: .seconds(5))   // and now awake: no real time passed
/// try await sleeper.value
/// ```
///
/// Install it in a test container with `test.installTestClock()`, for app code that injects
/// `any Clock<Duration>`.
///
/// - Advancing resumes every sleeper whose deadline is reached, in deadline order, and those
///   with the same deadline in the order they went to sleep. Time jumps to the target at once:
///   a sleeper that goes back to sleep after waking counts from the new ``now``.
/// - `advance` does not wait for the code after a sleeper's `sleep` to run. To know where a task
///   has got to, wait for it to sleep again with ``waitForSleepers(_:)``, or await the task.
/// - A sleeper whose task is cancelled throws `CancellationError` at once and stops counting in
///   ``sleeperCount``; the others sleep on.
/// - Sleeping until ``now`` or earlier returns at once, unless the task is cancelled.
///
/// It is `Sendable`: sleepers and the test may use it from any task.
public final class WiringTestClock: Clock, Sendable {
    /// A point in a ``WiringTestClock``'s time: how long after the clock's zero it is.
    ///
    /// ```swift
    /// let clock = WiringTestClock()
    /// await clock.advance(by: .seconds(3))
    /// #expect(clock.now == WiringTestClock.Instant(offset: .seconds(3)))
    /// ```
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// How long after the clock's zero this instant is.
        public var offset: Swift.Duration

        /// The instant `offset` after the clock's zero; the zero itself by default.
        ///
        /// ```swift
        /// let deadline = WiringTestClock.Instant(offset: .seconds(30))
        /// ```
        public init(offset: Swift.Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later (earlier, if negative).
        ///
        /// ```swift
        /// let later = clock.now.advanced(by: .seconds(1))
        /// ```
        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// How long it is from this instant to `other`: negative when `other` is earlier.
        ///
        /// ```swift
        /// let waited = start.duration(to: clock.now)
        /// ```
        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        /// Whether `lhs` is earlier than `rhs`.
        ///
        /// ```swift
        /// #expect(clock.now < clock.now.advanced(by: .seconds(1)))
        /// ```
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's zero, as in `"5.0 seconds"`.
        ///
        /// ```swift
        /// print(clock.now)   // 5.0 seconds
        /// ```
        public var description: String {
            offset.description
        }
    }

    private let state: LockedState<State>

    /// A clock whose time is `now` until the test advances it; by default the clock's zero.
    ///
    /// ```swift
    /// let clock = WiringTestClock()
    /// let late = WiringTestClock(now: .init(offset: .seconds(3_600)))
    /// ```
    /// - Parameter now: The clock's time to begin with.
    public init(now: Instant = Instant()) {
        state = LockedState(State(now: now))
    }

    /// The clock's time: where the test has advanced it to.
    ///
    /// ```swift
    /// let start = clock.now
    /// await clock.advance(by: .milliseconds(250))
    /// #expect(start.duration(to: clock.now) == .milliseconds(250))
    /// ```
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// `.zero`: the clock wakes a sleeper at exactly its deadline.
    ///
    /// ```swift
    /// #expect(WiringTestClock().minimumResolution == .zero)
    /// ```
    public var minimumResolution: Swift.Duration {
        .zero
    }

    /// How many tasks are asleep on the clock now: gone to sleep, and neither woken nor
    /// cancelled since.
    ///
    /// ```swift
    /// #expect(clock.sleeperCount == 0)
    /// ```
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the test advances the clock to `deadline` or past it; returns at once when
    /// the clock is there already.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
    /// try await clock.sleep(for: .seconds(1))   // the same, through `Clock`'s `sleep(for:)`
    /// ```
    /// - Parameters:
    ///   - deadline: When to wake.
    ///   - tolerance: Ignored: the clock wakes a sleeper exactly at its deadline.
    /// - Throws: `CancellationError` when the task is cancelled, before or while it sleeps.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.makeID() }
        defer { state.withLock { $0.forget(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { $0.suspend(id, until: deadline, continuation: continuation) }
                switch outcome {
                case .due:
                    continuation.resume()
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .asleep(let wokenWaiters):
                    for waiter in wokenWaiters { waiter.resume() }
                }
            }
        } onCancel: {
            state.withLock { $0.cancelSleep(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock's time forward by `duration` and wakes every sleeper whose deadline it
    /// reaches, in deadline order; those with the same deadline in the order they went to sleep.
    ///
    /// ```swift
    /// await clock.advance(by: .seconds(5))
    /// ```
    ///
    /// It returns once the sleepers are resumed, not once they have run: to know where they
    /// have got to, use ``waitForSleepers(_:)`` or await their tasks. Time never moves back: a
    /// negative duration leaves the clock as it is.
    /// - Parameter duration: How far to move the time.
    public func advance(by duration: Swift.Duration) async {
        let woken = state.withLock { $0.advance(to: $0.now.advanced(by: duration)) }
        for sleeper in woken { sleeper.resume() }
    }

    /// Moves the clock's time forward to `instant` and wakes every sleeper whose deadline it
    /// reaches, as ``advance(by:)`` does.
    ///
    /// ```swift
    /// let start = clock.now
    /// await clock.advance(to: start.advanced(by: .seconds(60)))
    /// ```
    ///
    /// Time never moves back: an instant before ``now`` leaves the clock as it is.
    /// - Parameter instant: Where to move the time.
    public func advance(to instant: Instant) async {
        let woken = state.withLock { $0.advance(to: instant) }
        for sleeper in woken { sleeper.resume() }
    }

    /// Moves the clock's time to the latest deadline of the tasks asleep now, waking them all,
    /// in deadline order. With none asleep, it does nothing.
    ///
    /// ```swift
    /// await clock.waitForSleepers(3)
    /// await clock.run()                      // all three wake
    /// ```
    public func run() async {
        let woken = state.withLock { state in
            state.advance(to: state.sleepers.values.map(\.deadline).max() ?? state.now)
        }
        for sleeper in woken { sleeper.resume() }
    }

    /// Waits until at least `count` tasks are asleep on the clock, without polling: the way for
    /// a test to know that the code it started has reached its `sleep` before advancing.
    ///
    /// ```swift
    /// let refresh = Task { try await poller.refreshEveryMinute() }
    /// await clock.waitForSleepers(1)         // the poller is waiting for its first minute
    /// await clock.advance(by: .seconds(60))
    /// ```
    ///
    /// It returns early, with fewer asleep, when the waiting task is cancelled (as a test's
    /// time limit does). Sleepers that wake or are cancelled meanwhile do not count.
    /// - Parameter count: How many sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        guard !Task.isCancelled else { return }
        let id = state.withLock { $0.makeID() }
        defer { state.withLock { $0.forget(id) } }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { $0.wait(id, for: count, continuation: continuation) }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.cancelWait(id) }?.resume()
        }
    }
}

extension WiringTestClock {
    /// A task asleep on the clock.
    private struct Sleeper {
        let deadline: Instant
        /// When it went to sleep, among all the clock's sleepers: the order of equal deadlines.
        let arrival: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A task waiting for enough sleepers.
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    /// What a task going to sleep does next.
    private enum Suspension {
        /// The deadline is reached already: return at once.
        case due
        /// The task was cancelled before it could sleep: throw.
        case cancelled
        /// It sleeps; these waiters have the sleepers they waited for.
        case asleep(wokenWaiters: [CheckedContinuation<Void, Never>])
    }

    /// The clock's time and who waits on it, under the clock's lock. Continuations are resumed
    /// by the callers, after the lock is given up.
    private struct State {
        var now: Instant
        var sleepers: [Int: Sleeper] = [:]
        var waiters: [Int: Waiter] = [:]
        /// Sleeps and waits whose task was cancelled before they suspended: they end at once
        /// when they try to.
        var cancelledEarly: Set<Int> = []
        private var nextID = 0
        private var nextArrival = 0

        init(now: Instant) {
            self.now = now
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

        /// Forgets a sleep or wait that has ended: a cancellation that came after it was resumed
        /// leaves its mark behind.
        mutating func forget(_ id: Int) {
            cancelledEarly.remove(id)
        }

        /// Moves the time to `instant`, if it is later, and takes out the sleepers due then, in
        /// the order to wake them.
        mutating func advance(to instant: Instant) -> [CheckedContinuation<Void, any Error>] {
            if instant > now { now = instant }
            let due = sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { sleepers[id] = nil }
            return due.values
                .sorted { ($0.deadline, $0.arrival) < ($1.deadline, $1.arrival) }
                .map(\.continuation)
        }
    }
}
