import Foundation
import Testing
import Wiring
import WiringTestSupport

// "Clocks, UUIDs and dates" in the TestDoubles article, verbatim inside a test.

// Five minutes: under a sanitizer, with the suite in parallel, the clock gets few turns.
@Suite(.timeLimit(.minutes(5))) struct TestDoublesGeneratorsReadme {
    @Test func clocksUUIDsAndDates() async throws {
        // The documentation's fixtures declare a `Clock` protocol of their own; the example means Swift's.
        typealias Clock = Swift.Clock

        struct Reminder: Injectable {                                   // app code
            let id: UUID, created: Date, clock: any Clock<Duration>
            init(resolver: any Resolver) throws {
                id = try resolver.resolve(WiringUUIDGenerator.self)()        // Wiring's generators
                created = try resolver.resolve(WiringDateGenerator.self)()   // resolve with no registration
                clock = try resolver.resolve((any Clock<Duration>).self)
            }
        }
        let container = Container()
        container.register((any Clock<Duration>).self) { _ in ContinuousClock() }

        let test = TestContainer(base: container)
        let clock = test.installTestClock()                             // time moves only when the test moves it
        test.installSequentialUUIDs()                                   // 00000000-0000-0000-0000-000000000000, …001, …
        test.installFixedDate(Date(timeIntervalSince1970: 0))

        let reminder = try test.resolve(Reminder.self)                  // id …000, created 1970-01-01
        let snooze = Task { try await reminder.clock.sleep(for: .seconds(300)) }
        await clock.waitForSleepers(1)                                  // the task is asleep on the test clock
        await clock.advance(by: .seconds(300))                          // five minutes pass, at once
        try await snooze.value
        print(test.trace.render())                                      // each double is an override "test"

        // What the comments claim.
        #expect(reminder.id.uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(try test.resolve(WiringUUIDGenerator.self)().uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(reminder.created == Date(timeIntervalSince1970: 0))
        #expect(reminder.clock as? WiringTestClock === clock)
        #expect(clock.now.offset == .seconds(300))
        #expect(clock.sleeperCount == 0)
        let lines = test.trace.render().split(separator: "\n")
        for double in ["WiringUUIDGenerator", "WiringDateGenerator", ServiceKey((any Clock<Duration>).self).typeDescription] {
            #expect(lines.contains { $0.contains(double) && $0.hasSuffix("(override \"test\")") }, "\(double)")
        }
        // Without the test container, the same app code gets the real ones.
        let live = try container.resolve(Reminder.self)
        #expect(live.id != reminder.id && live.created > reminder.created && live.clock is ContinuousClock)
    }

    @Test func theTestClockStepsAndTheImmediateClockDoesNotWait() async throws {
        let clock = WiringTestClock()
        let ticker = Task {
            for _ in 0..<25 { try await clock.sleep(for: .seconds(60)) }   // a minute, 25 times
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(25 * 60))                          // minute by minute: all 25 end
        try await ticker.value

        let forever = Task { while true { try await clock.sleep(for: .seconds(1)) } }
        await clock.waitForSleepers(1)
        await #expect(throws: WiringTestClock.RunLimitReached.self) {
            try await clock.run(maximumSteps: 100)                          // 100 deadlines, then it throws
        }
        forever.cancel()

        let immediate = WiringImmediateClock()
        try await immediate.sleep(for: .seconds(300))                       // returns at once
        #expect(immediate.now.offset == .seconds(300))

        // What the comments claim (how far the endless loop got depends on how busy the machine is).
        #expect(clock.now.offset > .seconds(25 * 60))
        await #expect(throws: CancellationError.self) { try await forever.value }
    }
}
