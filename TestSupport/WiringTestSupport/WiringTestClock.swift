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
/// - Advancing steps through the deadlines it reaches one at a time, earliest first: it sets
///   ``now`` to the deadline, wakes the sleepers waiting for it in the order they went to sleep,
///   and gives them a bounded number of turns of the cooperative pool to run and sleep again
///   before it looks for the next deadline. A task that sleeps again inside the window wakes
///   again in the same `advance`, as with swift-clocks' `TestClock`: a loop that sleeps a minute
///   25 times finishes with one `advance(by: .seconds(25 * 60))`. After the last deadline in the
///   window, ``now`` is the target.
/// - ``run(maximumSteps:timeout:)`` advances until nobody is asleep, and throws
///   ``RunLimitReached`` instead of hanging when the sleepers never run out.
/// - The turns are a bound, not a promise: code that awaits more than a few other things after
///   its sleep may not have slept again when the next deadline comes. To know where a task has
///   got to, wait for it with ``waitForSleepers(_:)``, or await the task.
/// - A sleeper whose task is cancelled throws `CancellationError` at once and stops counting in
///   ``sleeperCount``; the others sleep on.
/// - Sleeping until ``now`` or earlier returns at once, unless the task is cancelled.
///
/// For code that should not wait at all, ``WiringImmediateClock`` returns from every sleep at
/// once. Both are `Sendable`: sleepers and the test may use them from any task.
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
        // Runs in this task once it is resumed: the clock then knows the woken task is running.
        defer {
            let thread = RunningThread.current()
            state.withLock { $0.forget(id, runningOn: thread) }
        }
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

    /// Moves the clock's time forward by `duration`, one deadline at a time, waking the sleepers
    /// due at each, and sleepers that went to sleep meanwhile if they are due within the window.
    ///
    /// ```swift
    /// let ticker = Task { for _ in 0..<25 { try await clock.sleep(for: .seconds(60)) } }
    /// await clock.waitForSleepers(1)
    /// await clock.advance(by: .seconds(25 * 60))   // all 25 sleeps end
    /// ```
    ///
    /// At each deadline in the window, earliest first, it sets ``now`` to the deadline, wakes
    /// the sleepers waiting for it in the order they went to sleep, and waits a bounded number
    /// of turns of the cooperative pool for them to run and sleep again (and, for one that has
    /// not slept again by then, 20 ms of real time, and on Linux up to 500 ms while its thread is
    /// still running); then ``now`` is the
    /// target. It returns without waiting for the woken code to finish: to know where it has got
    /// to, use ``waitForSleepers(_:)`` or await its task. Time never moves back: a negative
    /// duration wakes nobody and leaves the clock as it is. When the calling task is cancelled,
    /// it stops between two deadlines, short of the target.
    /// - Parameter duration: How far to move the time, from ``now`` when it is called.
    public func advance(by duration: Swift.Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock's time forward to `instant`, one deadline at a time, as
    /// ``advance(by:)`` does.
    ///
    /// ```swift
    /// let start = clock.now
    /// await clock.advance(to: start.advanced(by: .seconds(60)))
    /// ```
    ///
    /// Time never moves back: an instant before ``now`` wakes nobody and leaves the clock as it
    /// is. When the calling task is cancelled (as a test's time limit does), it stops between
    /// two deadlines, short of `instant`.
    /// - Parameter instant: Where to move the time.
    public func advance(to instant: Instant) async {
        // Tasks started just before may not have reached their sleep yet.
        await letWokenTasksRun()
        while !Task.isCancelled, await wakeEarliest(notAfter: instant) {}
    }

    /// Advances the clock from deadline to deadline until no task is asleep on it, waking the
    /// sleepers of each as ``advance(by:)`` does, and throws rather than go on for ever.
    ///
    /// ```swift
    /// let retries = Task { try await uploader.uploadRetryingEvery(.seconds(30), times: 5) }
    /// await clock.waitForSleepers(1)
    /// try await clock.run()                  // every retry's wait ends; then nobody sleeps
    /// ```
    ///
    /// With nobody asleep it leaves the time as it is. Code that always sleeps again, a timer
    /// that ticks for ever, never lets it finish: it stops at whichever bound comes first and
    /// throws ``RunLimitReached``, which says how many tasks are still asleep and which bound it
    /// hit, so the test fails there instead of hanging. For such code, advance by the time the
    /// test needs instead.
    /// - Parameters:
    ///   - maximumSteps: How many deadlines it may wake, one step each.
    ///   - timeout: How much real time it may take, measured on `ContinuousClock`.
    /// - Throws: ``RunLimitReached`` when a bound stops it with tasks still asleep;
    ///   `CancellationError` when the calling task is cancelled (as a test's time limit does).
    public func run(maximumSteps: Int = 1_000, timeout: Swift.Duration = .seconds(5)) async throws {
        let started = ContinuousClock.now
        await letWokenTasksRun()
        var steps = 0
        while sleeperCount > 0 {
            try Task.checkCancellation()
            let elapsed = started.duration(to: .now)
            let bound: RunLimitReached.Bound? =
                steps >= maximumSteps ? .steps(maximumSteps) : elapsed >= timeout ? .timeout(timeout) : nil
            if let bound {
                throw RunLimitReached(bound: bound, steps: steps, sleeperCount: sleeperCount, now: now)
            }
            guard await wakeEarliest(notAfter: nil) else { return }
            steps += 1
        }
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
        defer { state.withLock { $0.forget(id, runningOn: nil) } }
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
    /// Turns of the cooperative pool a woken task gets, once it runs, to sleep again before the
    /// clock looks for the next deadline: enough for code that reaches its next sleep with a few
    /// awaits in between (swift-clocks' `megaYield` gives 20 as well).
    private static let turnsAfterWaking = 20

    /// Turns the clock waits at most for the tasks it woke to run at all: a bound for a task
    /// whose executor never frees up, after which the clock moves on without it.
    private static let maximumTurnsPerDeadline = 1_000

    /// Real time a woken task gets, after its turns, when it has not slept again: on a machine
    /// busy with other work its thread may be held off the processor for longer than the turns
    /// take. At least `least`; then, where the platform tells (Linux), for as long as a thread a
    /// woken task ran on is still running or ready to run, up to `most`. Paid only when fewer
    /// tasks are asleep than before the wake, as when a task ends.
    private static let graceForATaskThatDidNotSleepAgain = (
        least: Swift.Duration.milliseconds(20), most: Swift.Duration.milliseconds(500)
    )

    /// Wakes the sleepers of the earliest deadline, if it is `limit` or earlier (any, without a
    /// limit), and lets them run; `false` when none was due, the time then moved to `limit`.
    private func wakeEarliest(notAfter limit: Instant?) async -> Bool {
        let asleepBefore = sleeperCount
        guard let woken = state.withLock({ $0.wakeEarliest(notAfter: limit) }) else { return false }
        for sleeper in woken { sleeper.resume() }
        await letWokenTasksRun(untilAsleep: asleepBefore)
        return true
    }

    /// Waits, a bounded number of turns of the cooperative pool, until every task the clock
    /// woke has run again, and then ``turnsAfterWaking`` more, for code after a sleep to reach
    /// the next one; when fewer than `asleepBefore` tasks are asleep by then, it waits up to
    /// ``graceForATaskThatDidNotSleepAgain`` more for them.
    private func letWokenTasksRun(untilAsleep asleepBefore: Int = 0) async {
        var turnsSinceAllRan = 0
        for _ in 0..<Self.maximumTurnsPerDeadline {
            await waitOneTurnOfThePool()
            guard state.withLock({ $0.wokenNotYetRunning.isEmpty }) else { continue }
            turnsSinceAllRan += 1
            if turnsSinceAllRan >= Self.turnsAfterWaking { break }
        }
        let grace = Self.graceForATaskThatDidNotSleepAgain
        let waitingSince = ContinuousClock.now
        while sleeperCount < asleepBefore, !Task.isCancelled {
            let waited = waitingSince.duration(to: .now)
            guard waited < grace.least || (waited < grace.most && aWokenTaskMayStillRun()) else { return }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Whether a thread a task the clock woke ran on is still running or ready to run, other
    /// than the caller's: the task may not have reached its next sleep yet.
    private func aWokenTaskMayStillRun() -> Bool {
        let threads = state.withLock { $0.wokenThreads }
        let caller = RunningThread.current()
        return threads.contains { $0 != caller && RunningThread.isRunnable($0) }
    }
}
