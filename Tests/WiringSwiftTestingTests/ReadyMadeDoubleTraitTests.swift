import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// .testClock(), .immediateClock(), .sequentialUUIDs() and .fixedDate(_:): the ready-made doubles
// in one line, new for each test case, the installed clock reachable by the test.

/// App code that reads the clock, the ids and the date from its container.
struct Reminder: Injectable {
    let id: UUID, created: Date, clock: any Clock<Duration>

    init(resolver: any Resolver) throws {
        id = try resolver.resolve(WiringUUIDGenerator.self)()
        created = try resolver.resolve(WiringDateGenerator.self)()
        clock = try resolver.resolve((any Clock<Duration>).self)
    }

    func snooze() async throws {
        try await clock.sleep(for: .seconds(300))
    }
}

/// The app's container: the real clock, and another under a name.
func makeReminderApp() -> Container {
    let container = Container()
    container.register((any Clock<Duration>).self) { _ in ContinuousClock() }
    container.register((any Clock<Duration>).self, name: "animations") { _ in ContinuousClock() }
    return container
}

@Test(.testContainer { makeReminderApp() }, .testClock(), .sequentialUUIDs(), .fixedDate(Date(timeIntervalSince1970: 0)))
func aReminderSnoozesForFiveMinutes() async throws {
    let clock = try #require(WiringTestClock.current)                 // this test's own clock
    let reminder = try #require(TestContainer.current).resolve(Reminder.self)
    #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(reminder.created == Date(timeIntervalSince1970: 0))
    let snooze = Task { try await reminder.snooze() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(300))                            // five minutes, at once
    try await snooze.value
}

@Suite(.timeLimit(.minutes(5))) struct ReadyMadeDoubleTraitTests {   // the clock gets few turns under a sanitizer
    @Test(.testContainer { makeReminderApp() }, .testClock(), .sequentialUUIDs(), .fixedDate(Date(timeIntervalSince1970: 0)))
    func appCodeGetsTheInstalledDoublesAndTheTraceShowsThemAsOverrides() async throws {
        let test = try #require(TestContainer.current)
        let clock = try #require(WiringTestClock.current)
        let reminder = try test.resolve(Reminder.self)
        #expect(reminder.clock as? WiringTestClock === clock)
        #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(reminder.created == Date(timeIntervalSince1970: 0))
        #expect(WiringImmediateClock.current == nil)

        let snooze = Task { try await reminder.snooze() }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(300))
        try await snooze.value
        #expect(clock.now.offset == .seconds(300))

        let clockType = ServiceKey((any Clock<Duration>).self).typeDescription
        #expect(test.trace.render() == """
            Reminder .graph new #4 (implicit)
            ├── WiringUUIDGenerator .container new #1 (override "test")
            ├── WiringDateGenerator .container new #2 (override "test")
            └── \(clockType) .container new #3 (override "test")
            """)
        // The app's named clock is another registration: left as it is.
        #expect(try test.resolve((any Clock<Duration>).self, name: "animations") is ContinuousClock)
    }

    @Test(.testClock(), .sequentialUUIDs(), .testContainer { makeReminderApp() })
    func doublesListedBeforeTheContainerAreInstalledWhenItIsMade() throws {
        let test = try #require(TestContainer.current)
        let reminder = try test.resolve(Reminder.self)
        #expect(reminder.clock as? WiringTestClock === WiringTestClock.current)
        #expect(WiringTestClock.current != nil)
        #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
    }

    @Test(.testContainer { makeReminderApp() }, .testClock(), .sequentialUUIDs(), arguments: 0..<16)
    func eachArgumentGetsItsOwnClockAndCountsItsOwnUUIDs(index: Int) async throws {
        let test = try #require(TestContainer.current)
        let clock = try #require(WiringTestClock.current)
        #expect(try test.resolve((any Clock<Duration>).self) as? WiringTestClock === clock)
        #expect(clock.now == WiringTestClock.Instant())   // no other argument moved it
        // Let the other arguments advance theirs and take their ids in between.
        await clock.advance(by: .seconds(index))
        await Task.yield()
        #expect(clock.now.offset == .seconds(index))
        #expect(try test.resolve(WiringUUIDGenerator.self)().uuidString == "00000000-0000-0000-0000-000000000000")
    }

    @Test(.testContainer { makeReminderApp() }, .testClock(name: "animations"))
    func aNamedClockIsReplacedUnderItsName() throws {
        let test = try #require(TestContainer.current)
        let clock = try #require(WiringTestClock.current)
        #expect(try test.resolve((any Clock<Duration>).self, name: "animations") as? WiringTestClock === clock)
        #expect(try test.resolve((any Clock<Duration>).self) is ContinuousClock)
    }

    @Test(.testContainer { makeReminderApp() }, .immediateClock())
    func theImmediateClockEndsTheSnoozeAtOnce() async throws {
        let clock = try #require(WiringImmediateClock.current)
        let reminder = try #require(TestContainer.current).resolve(Reminder.self)
        #expect(reminder.clock as? WiringImmediateClock === clock)
        #expect(WiringTestClock.current == nil)
        try await reminder.snooze()
        #expect(clock.now.offset == .seconds(300))
    }

    @Test func noClockWithoutTheTrait() {
        #expect(WiringTestClock.current == nil)
        #expect(WiringImmediateClock.current == nil)
    }

    /// Under a container other tests share, each scope's clock goes into a layer only its task
    /// sees, and each scope gets a new one.
    @Test func underASharedContainerEachScopeGetsANewClockInALayer() async throws {
        let shared = TestContainer(base: makeReminderApp())
        let trait: ClockTrait = .testClock()
        let clocks = Locked<[WiringTestClock]>([])
        try await TestContainer.$current.withValue(shared) {
            for _ in 0..<2 {
                try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                    let clock = try #require(WiringTestClock.current)
                    #expect(try shared.resolve((any Clock<Duration>).self) as? WiringTestClock === clock)
                    clocks.withLock { $0.append(clock) }
                }
            }
        }
        let made = clocks.withLock { $0 }
        #expect(made.count == 2)
        #expect(made.first !== made.last)
        #expect(try shared.resolve((any Clock<Duration>).self) is ContinuousClock)
        #expect(shared.layerNames.isEmpty)
    }

    @Test func readyMadeGeneratorsUnderASharedContainerGoIntoALayerOfTheirOwn() async throws {
        let shared = TestContainer(base: makeReminderApp())
        let ids: TestDoubleTrait = .sequentialUUIDs()
        let date: TestDoubleTrait = .fixedDate(Date(timeIntervalSince1970: 42))
        try await TestContainer.$current.withValue(shared) {
            for _ in 0..<2 {
                try await ids.provideScope(for: Test.current!, testCase: Test.Case.current) {
                    try await date.provideScope(for: Test.current!, testCase: Test.Case.current) {
                        // Each scope counts from zero.
                        let generator = try shared.resolve(WiringUUIDGenerator.self)
                        #expect(generator().uuidString == "00000000-0000-0000-0000-000000000000")
                        #expect(generator().uuidString == "00000000-0000-0000-0000-000000000001")
                        #expect(try shared.resolve(WiringDateGenerator.self)() == Date(timeIntervalSince1970: 42))
                    }
                }
            }
        }
        #expect(try shared.resolve(WiringDateGenerator.self)() > Date(timeIntervalSince1970: 42))
        #expect(shared.layerNames.isEmpty)
    }

    @Test func aClockWithoutAContainerFails() async throws {
        let trait: ClockTrait = .testClock()
        let line = #line - 1
        let failures = await expectFailures {
            try? await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {}
        }
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileID == #fileID)
        #expect(failures.first?.message == """
            `.testClock()` found no test container to apply to
              fix: add `.testContainer { makeAppContainer() }` to the test or its suite
            """)
    }
}
