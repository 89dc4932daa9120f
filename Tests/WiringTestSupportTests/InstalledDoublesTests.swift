import Foundation
import Testing
import Wiring
import WiringTestSupport

// installTestClock, installSequentialUUIDs and installFixedDate: one call each, an ordinary
// override that app code resolves and the trace shows.

@Suite(.timeLimit(.minutes(4))) struct InstalledDoublesTests {
    @Test func appCodeGetsTheDoublesAndTheTraceShowsEachAsAnOverride() async throws {
        let test = TestContainer(base: makeReminderApp())
        let clock = test.installTestClock()
        test.installSequentialUUIDs()
        test.installFixedDate(Date(timeIntervalSince1970: 1_000))

        let reminder = try test.resolve(Reminder.self)
        #expect(reminder.clock as? WiringTestClock === clock)
        #expect(reminder.id == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
        #expect(reminder.created == Date(timeIntervalSince1970: 1_000))

        let snoozing = Task { try await reminder.snooze() }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(300))
        try await snoozing.value

        // The key's type, as the runtime names a constrained existential.
        let clockType = ServiceKey((any Clock<Duration>).self).typeDescription
        #expect(test.trace.render() == """
            Reminder .graph new #4 (implicit)
            ├── WiringUUIDGenerator .container new #1 (override "test")
            ├── WiringDateGenerator .container new #2 (override "test")
            └── \(clockType) .container new #3 (override "test")
            """)
    }

    @Test func sequentialUUIDsCountUpAcrossResolutions() throws {
        let test = TestContainer(base: Container())
        let generator = test.installSequentialUUIDs()

        let first = try test.resolve(WiringUUIDGenerator.self)()
        let second = try test.resolve(WiringUUIDGenerator.self)()
        #expect(first.uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(second.uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(generator().uuidString == "00000000-0000-0000-0000-000000000002")
        let more = (0..<254).map { _ in generator() }
        #expect(more.last?.uuidString == "00000000-0000-0000-0000-000000000100")

        test.installSequentialUUIDs()   // a new count
        #expect(try test.resolve(WiringUUIDGenerator.self)().uuidString == "00000000-0000-0000-0000-000000000000")
    }

    @Test func withoutARegistrationTheLiveGeneratorsAreResolved() throws {
        let container = Container()
        let ids = try container.resolve(WiringUUIDGenerator.self)
        #expect(ids() != ids())
        #expect(try container.resolve(WiringUUIDGenerator.self)() != container.resolve(WiringUUIDGenerator.self)())

        let before = Date()
        let now = try container.resolve(WiringDateGenerator.self)()
        #expect(before <= now && now <= Date())

        // A test container with nothing installed resolves them the same way.
        let test = TestContainer(base: container)
        let live = try test.resolve(WiringUUIDGenerator.self)
        #expect(live() != live())
    }

    @Test func aDoubleInstalledInALayerGoesWithTheLayer() throws {
        let test = TestContainer(base: makeReminderApp())
        test.pushLayer("frozen")
        test.installFixedDate(Date(timeIntervalSince1970: 0))
        #expect(try test.resolve(WiringDateGenerator.self)() == Date(timeIntervalSince1970: 0))
        #expect(test.trace.render() == """
            WiringDateGenerator .container new #1 (override "frozen")
            """)

        test.popLayer()
        #expect(try test.resolve(WiringDateGenerator.self)() > Date(timeIntervalSince1970: 0))
    }

    @Test func aNamedClockIsInstalledUnderItsName() throws {
        let base = makeReminderApp()
        base.register((any Clock<Duration>).self, name: "animations") { _ in SuspendingClock() }
        let test = TestContainer(base: base)
        let clock = test.installTestClock(WiringTestClock(now: .init(offset: .seconds(60))), name: "animations")

        #expect(try test.resolve((any Clock<Duration>).self, name: "animations") as? WiringTestClock === clock)
        #expect(try test.resolve((any Clock<Duration>).self) is ContinuousClock)
        #expect(clock.now.offset == .seconds(60))
    }

    @Test func eachInstallIsAnOverrideAtTheCallersLine() {
        let test = TestContainer(base: makeReminderApp())
        let line = #line
        test.installTestClock()
        test.installSequentialUUIDs()
        test.installFixedDate(Date())

        let sites = test.unusedRegistrations().filter { $0.layer != nil }.map { "\($0.key) \($0.site)" }
        let file = "WiringTestSupportTests/InstalledDoublesTests.swift"
        #expect(sites == [
            "\(ServiceKey((any Clock<Duration>).self)) \(file):\(line + 1)",
            "WiringUUIDGenerator \(file):\(line + 2)",
            "WiringDateGenerator \(file):\(line + 3)",
        ])
    }
}

// MARK: Fixtures

/// An app's container: its clock is the continuous clock; the UUIDs and the date need no
/// registration.
private func makeReminderApp() -> Container {
    let container = Container()
    container.register((any Clock<Duration>).self) { _ in ContinuousClock() }
    return container
}

/// App code that injects a clock, UUIDs and the date.
private struct Reminder: Injectable {
    let id: UUID
    let created: Date
    let clock: any Clock<Duration>

    init(resolver: any Resolver) throws {
        id = try resolver.resolve(WiringUUIDGenerator.self)()
        created = try resolver.resolve(WiringDateGenerator.self)()
        clock = try resolver.resolve((any Clock<Duration>).self)
    }

    func snooze() async throws {
        try await clock.sleep(for: .seconds(300))
    }
}
