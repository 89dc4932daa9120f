extension WiringTestClock {
    /// Thrown by ``WiringTestClock/run(maximumSteps:timeout:)`` when a bound stops it with tasks
    /// still asleep: code that always sleeps again never lets `run()` finish, and the test fails
    /// here instead of hanging.
    ///
    /// ```swift
    /// let ticking = Task { while true { try await clock.sleep(for: .seconds(1)) } }
    /// await clock.waitForSleepers(1)
    /// await #expect(throws: WiringTestClock.RunLimitReached.self) { try await clock.run(maximumSteps: 100) }
    /// ticking.cancel()
    /// ```
    public struct RunLimitReached: Error, CustomStringConvertible, Sendable {
        /// Which of `run`'s bounds stopped it.
        public enum Bound: Equatable, Sendable {
            /// It woke this many deadlines, its `maximumSteps`.
            case steps(Int)
            /// It took this much real time, its `timeout`.
            case timeout(Swift.Duration)
        }

        /// The bound that stopped it.
        public let bound: Bound
        /// How many deadlines it woke before it stopped.
        public let steps: Int
        /// How many tasks were still asleep on the clock when it stopped.
        public let sleeperCount: Int
        /// The clock's time when it stopped.
        public let now: Instant

        /// What stopped `run()`, who is still asleep, and what to do about it.
        public var description: String {
            let limit =
                switch bound {
                case .steps(let maximum): "its maximumSteps, \(maximum) deadlines woken"
                case .timeout(let timeout): "its timeout, \(timeout) of real time, after \(steps) deadlines woken"
                }
            let asleep = sleeperCount == 1 ? "1 task still asleep" : "\(sleeperCount) tasks still asleep"
            return """
                error: WiringTestClock.run() reached \(limit), with \(asleep) at \(now): code that \
                always sleeps again never lets run() finish
                  fix: advance the clock by the time the test needs (advance(by:)), or, if the sleeps \
                do run out, pass run() a larger maximumSteps or timeout
                """
        }
    }
}
