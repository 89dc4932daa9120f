import Wiring

/// A `Clock` whose sleeps end at once: its time jumps to each sleep's deadline, so code that
/// waits runs straight through, and reads the time it would have reached.
///
/// ```swift
/// let clock = WiringImmediateClock()
/// try await clock.sleep(for: .seconds(30))   // returns at once
/// #expect(clock.now.offset == .seconds(30))
/// ```
///
/// Use it where a test wants the code after the waits, not the waits themselves: a retry's
/// back-off, a debounce, an animation's delay. Install it in a test container with
/// `test.installImmediateClock()`, for app code that injects `any Clock<Duration>`. Where the
/// test should decide when each sleep ends, use ``WiringTestClock``, as with swift-clocks'
/// `ImmediateClock` and `TestClock`.
///
/// - A sleep checks for cancellation first: a cancelled task throws `CancellationError` and
///   the time stays. Otherwise the time moves to the deadline (never back), and the sleeping
///   task yields once, so a loop of sleeps lets other tasks run.
/// - Sleeps from several tasks each move the time to their own deadline: it ends at the latest.
///
/// It is `Sendable`: any task may sleep on it.
public final class WiringImmediateClock: Clock, Sendable {
    /// A point in the clock's time: how long after its zero it is, as for ``WiringTestClock``.
    public typealias Instant = WiringTestClock.Instant

    private let time: LockedState<Instant>

    /// A clock whose time is `now` until something sleeps on it; by default the clock's zero.
    ///
    /// ```swift
    /// let clock = WiringImmediateClock()
    /// let late = WiringImmediateClock(now: .init(offset: .seconds(3_600)))
    /// ```
    /// - Parameter now: The clock's time to begin with.
    public init(now: Instant = Instant()) {
        time = LockedState(now)
    }

    /// The clock's time: the latest deadline slept until, or where it began.
    ///
    /// ```swift
    /// try await clock.sleep(for: .milliseconds(250))
    /// #expect(clock.now.offset == .milliseconds(250))
    /// ```
    public var now: Instant {
        time.withLock { $0 }
    }

    /// `.zero`: a sleep ends exactly at its deadline.
    ///
    /// ```swift
    /// #expect(WiringImmediateClock().minimumResolution == .zero)
    /// ```
    public var minimumResolution: Swift.Duration {
        .zero
    }

    /// Moves the clock's time to `deadline`, if it is later, and returns at once: no real time
    /// passes.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
    /// try await clock.sleep(for: .seconds(1))   // the same, through `Clock`'s `sleep(for:)`
    /// ```
    /// - Parameters:
    ///   - deadline: The time to move to.
    ///   - tolerance: Ignored: the time moves exactly to the deadline.
    /// - Throws: `CancellationError` when the task is cancelled; the time then stays.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        time.withLock { now in
            if deadline > now { now = deadline }
        }
        // A suspension point, as a sleep is: a loop that sleeps lets other tasks run.
        await Task.yield()
    }
}
