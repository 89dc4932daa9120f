import Testing
import Wiring
import WiringTestSupport

/// Installs a clock of its own in the test container of each test it applies to, for app code
/// that injects `any Clock<Duration>`, and lets the test reach it. Made by
/// ``Testing/Trait/testClock(name:file:line:)`` and ``Testing/Trait/immediateClock(name:file:line:)``.
///
/// Each test case, each argument of a parameterized test, gets a new clock at its zero, so
/// tests running in parallel never move each other's time. It goes where `.override` would, and
/// is listed as `.override` is: after `.testContainer { … }`, or before it, on a suite for
/// instance.
public struct ClockTrait: TestTrait, SuiteTrait, TestScoping {
    /// Which clock each test gets.
    enum Kind {
        case test
        case immediate
    }

    private let kind: Kind
    private let name: String?
    private let file: StaticString
    private let line: UInt

    init(kind: Kind, name: String?, file: StaticString, line: UInt) {
        self.kind = kind
        self.name = name
        self.file = file
        self.line = line
    }

    /// Applied to every test of a suite.
    public var isRecursive: Bool { true }

    /// A scope for each test case only: each gets its own clock.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with a new clock installed in its test container and bound to
    /// `WiringTestClock.current` or `WiringImmediateClock.current`.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The clock is made here, once for the test case, so that the one the test reaches is
        // the one installed, wherever the override goes: the container `.testContainer` makes
        // for it (now or later), or a layer of a container others share.
        switch kind {
        case .test:
            let clock = WiringTestClock()
            try await WiringTestClock.$current.withValue(clock) {
                try await installing(clock, as: "`.testClock()`")
                    .provideScope(for: test, testCase: testCase, performing: function)
            }
        case .immediate:
            let clock = WiringImmediateClock()
            try await WiringImmediateClock.$current.withValue(clock) {
                try await installing(clock, as: "`.immediateClock()`")
                    .provideScope(for: test, testCase: testCase, performing: function)
            }
        }
    }

    /// An override of the app's clock with `clock`, applied as `.override` traits are.
    private func installing(_ clock: some Clock<Duration> & Sendable, as description: String) -> TestDoubleTrait {
        let (name, file, line) = (name, file, line)
        return TestDoubleTrait(doubles: TestDoubles(
            description: description, file: file, line: line,
            toContainer: { $0.override((any Clock<Duration>).self, name: name, instance: clock, file: file, line: line) },
            toLayer: { $0.override((any Clock<Duration>).self, name: name, instance: clock, file: file, line: line) }))
    }
}

extension Trait where Self == ClockTrait {
    /// Replaces the app's `any Clock<Duration>`, in the test container of each test, with a new
    /// `WiringTestClock` for that test, which it reaches as `WiringTestClock.current`.
    ///
    /// ```swift
    /// @Test(.testContainer { makeReminderApp() }, .testClock())
    /// func snoozeWaitsFiveMinutes() async throws {
    ///     let clock = try #require(WiringTestClock.current)
    ///     let reminder = try #require(TestContainer.current).resolve(Reminder.self)
    ///     let snooze = Task { try await reminder.snooze() }
    ///     await clock.waitForSleepers(1)
    ///     await clock.advance(by: .seconds(300))
    ///     try await snooze.value
    /// }
    /// ```
    ///
    /// On a suite, every test of it gets its own clock; parallel tests never share one. The
    /// override is like `test.installTestClock()`'s, shown in the trace as `(override "test")`.
    /// - Parameters:
    ///   - name: The name the app registers its clock under, if any.
    ///   - file: Where the trait is written, shown in traces and reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    public static func testClock(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) -> Self {
        ClockTrait(kind: .test, name: name, file: file, line: line)
    }

    /// Replaces the app's `any Clock<Duration>`, in the test container of each test, with a new
    /// `WiringImmediateClock` for that test, whose sleeps end at once; the test reaches it as
    /// `WiringImmediateClock.current`.
    ///
    /// ```swift
    /// @Test(.testContainer { makeUploaderApp() }, .immediateClock())
    /// func retriesBackOff() async throws {
    ///     try await #require(TestContainer.current).resolve(Uploader.self).uploadRetrying()
    ///     #expect(try #require(WiringImmediateClock.current).now.offset == .seconds(7))
    /// }
    /// ```
    ///
    /// On a suite, every test of it gets its own clock; parallel tests never share one.
    /// - Parameters:
    ///   - name: The name the app registers its clock under, if any.
    ///   - file: Where the trait is written, shown in traces and reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    public static func immediateClock(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) -> Self {
        ClockTrait(kind: .immediate, name: name, file: file, line: line)
    }
}
