import Foundation
import Wiring

// Ready-made doubles for what every app injects: a clock, UUIDs and the date. Each is an
// ordinary override in the top layer, shown in the trace like any other.

extension TestContainer {
    /// Replaces the app's `any Clock<Duration>` with a ``WiringTestClock``, whose time moves only
    /// when the test advances it, and returns the clock to advance.
    ///
    /// ```swift
    /// container.register((any Clock<Duration>).self) { _ in ContinuousClock() }   // the app's
    /// let clock = test.installTestClock()
    /// let sleeping = Task { try await test.resolve((any Clock<Duration>).self).sleep(for: .seconds(5)) }
    /// await clock.waitForSleepers(1)
    /// await clock.advance(by: .seconds(5))
    /// ```
    ///
    /// It is an override of the top layer, like `override(_:instance:)`: every resolution gets
    /// this one clock, and popping the layer removes it.
    /// - Parameters:
    ///   - clock: The clock to install; a new one at its zero by default.
    ///   - name: The name the app registers its clock under, if any.
    ///   - file: The file that installs it, shown in errors and reports; leave the default.
    ///   - line: The line that installs it, shown in errors and reports; leave the default.
    /// - Returns: The installed clock.
    @discardableResult
    public func installTestClock(
        _ clock: WiringTestClock = WiringTestClock(),
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> WiringTestClock {
        override((any Clock<Duration>).self, name: name, instance: clock, file: file, line: line)
        return clock
    }

    /// Replaces the app's `any Clock<Duration>` with a ``WiringImmediateClock``, whose sleeps
    /// end at once, and returns the clock, to read the time the code slept until.
    ///
    /// ```swift
    /// let clock = test.installImmediateClock()
    /// try await test.resolve(Uploader.self).uploadRetrying()   // its back-off waits take no time
    /// #expect(clock.now.offset == .seconds(7))
    /// ```
    ///
    /// It is an override of the top layer, like `override(_:instance:)`: every resolution gets
    /// this one clock, and popping the layer removes it.
    /// - Parameters:
    ///   - clock: The clock to install; a new one at its zero by default.
    ///   - name: The name the app registers its clock under, if any.
    ///   - file: The file that installs it, shown in errors and reports; leave the default.
    ///   - line: The line that installs it, shown in errors and reports; leave the default.
    /// - Returns: The installed clock.
    @discardableResult
    public func installImmediateClock(
        _ clock: WiringImmediateClock = WiringImmediateClock(),
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> WiringImmediateClock {
        override((any Clock<Duration>).self, name: name, instance: clock, file: file, line: line)
        return clock
    }

    /// Replaces `WiringUUIDGenerator` with one that makes `00000000-0000-0000-0000-000000000000`,
    /// then `…001`, `…002`, and so on, counting every `UUID` made through it, from any task.
    ///
    /// ```swift
    /// test.installSequentialUUIDs()
    /// let ids = try test.resolve(WiringUUIDGenerator.self)
    /// #expect(ids() == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    /// #expect(ids() == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    /// ```
    ///
    /// It is an override of the top layer, like `override(_:instance:)`: every resolution gets
    /// the same generator, so the count runs on across resolutions; install again to restart it.
    /// - Parameters:
    ///   - file: The file that installs it, shown in errors and reports; leave the default.
    ///   - line: The line that installs it, shown in errors and reports; leave the default.
    /// - Returns: The installed generator; calling it takes the next `UUID` too.
    @discardableResult
    public func installSequentialUUIDs(file: StaticString = #fileID, line: UInt = #line) -> WiringUUIDGenerator {
        let generator = WiringUUIDGenerator.sequential()
        override(WiringUUIDGenerator.self, instance: generator, file: file, line: line)
        return generator
    }

    /// Replaces `WiringDateGenerator` with one that always tells `date`.
    ///
    /// ```swift
    /// test.installFixedDate(Date(timeIntervalSince1970: 0))
    /// #expect(try test.resolve(WiringDateGenerator.self)() == Date(timeIntervalSince1970: 0))
    /// ```
    ///
    /// It is an override of the top layer, like `override(_:instance:)`.
    /// - Parameters:
    ///   - date: The date it tells.
    ///   - file: The file that installs it, shown in errors and reports; leave the default.
    ///   - line: The line that installs it, shown in errors and reports; leave the default.
    public func installFixedDate(_ date: Date, file: StaticString = #fileID, line: UInt = #line) {
        override(WiringDateGenerator.self, instance: WiringDateGenerator { date }, file: file, line: line)
    }
}
