import WiringTestSupport

extension WiringTestClock {
    /// The clock the `.testClock()` trait installed for the test running in this task, if any:
    /// the one to advance.
    ///
    /// ```swift
    /// @Test(.testContainer { makeReminderApp() }, .testClock())
    /// func snooze() async throws {
    ///     let clock = try #require(WiringTestClock.current)
    ///     await clock.advance(by: .seconds(300))
    /// }
    /// ```
    ///
    /// Tasks created inside inherit it, so tests running in parallel each see their own.
    @TaskLocal public static var current: WiringTestClock?
}

extension WiringImmediateClock {
    /// The clock the `.immediateClock()` trait installed for the test running in this task, if
    /// any: the one to read the time from.
    ///
    /// ```swift
    /// @Test(.testContainer { makeUploaderApp() }, .immediateClock())
    /// func backOff() async throws {
    ///     let clock = try #require(WiringImmediateClock.current)
    ///     #expect(clock.now.offset == .zero)
    /// }
    /// ```
    ///
    /// Tasks created inside inherit it, so tests running in parallel each see their own.
    @TaskLocal public static var current: WiringImmediateClock?
}
