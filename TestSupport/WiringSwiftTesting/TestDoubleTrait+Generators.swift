import Foundation
import Testing
import Wiring
import WiringTestSupport

extension Trait where Self == TestDoubleTrait {
    /// Replaces `WiringUUIDGenerator`, in the test container of each test, with a new one that
    /// makes `00000000-0000-0000-0000-000000000000`, then `…001`, `…002`, and so on.
    ///
    /// ```swift
    /// @Test(.testContainer { makeReminderApp() }, .sequentialUUIDs())
    /// func reminderIDs() throws {
    ///     let reminder = try #require(TestContainer.current).resolve(Reminder.self)
    ///     #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
    /// }
    /// ```
    ///
    /// Each test case, each argument of a parameterized test, counts from zero, whatever runs in
    /// parallel. The override is like `test.installSequentialUUIDs()`'s.
    /// - Parameters:
    ///   - file: Where the trait is written, shown in traces and reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    public static func sequentialUUIDs(file: StaticString = #fileID, line: UInt = #line) -> Self {
        // A new generator for each container or layer it goes into: each test counts its own.
        TestDoubleTrait(doubles: TestDoubles(
            description: "`.sequentialUUIDs()`", file: file, line: line,
            toContainer: { $0.installSequentialUUIDs(file: file, line: line) },
            toLayer: { $0.override(WiringUUIDGenerator.self, instance: .sequential(), file: file, line: line) }))
    }

    /// Replaces `WiringDateGenerator`, in the test container of each test, with one that always
    /// tells `date`.
    ///
    /// ```swift
    /// @Test(.testContainer { makeReminderApp() }, .fixedDate(Date(timeIntervalSince1970: 0)))
    /// func reminderIsDated() throws {
    ///     let reminder = try #require(TestContainer.current).resolve(Reminder.self)
    ///     #expect(reminder.created == Date(timeIntervalSince1970: 0))
    /// }
    /// ```
    ///
    /// The override is like `test.installFixedDate(_:)`'s.
    /// - Parameters:
    ///   - date: The date it tells.
    ///   - file: Where the trait is written, shown in traces and reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    public static func fixedDate(_ date: Date, file: StaticString = #fileID, line: UInt = #line) -> Self {
        TestDoubleTrait(doubles: TestDoubles(
            description: "`.fixedDate(\(date))`", file: file, line: line,
            toContainer: { $0.installFixedDate(date, file: file, line: line) },
            toLayer: { $0.override(WiringDateGenerator.self, instance: WiringDateGenerator { date }, file: file, line: line) }))
    }
}
