import Foundation
import Testing
import Wiring
import WiringTestSupport

// WiringTestClock: time moves only when the test advances it; sleepers wake in deadline order, ties
// in the order they went to sleep; a cancelled sleeper throws at once and leaves the others be.

@Suite(.serialized, .timeLimit(.minutes(4))) struct TestClockTests {
    @Test func aSleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
        let clock = WiringTestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)

        await clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)   // 4 s in: still asleep
        await clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0)   // 5 s in: woken
        try await sleeper.value
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func sleepersWakeInDeadlineOrderAndTiesInTheOrderTheyWentToSleep() async throws {
        let clock = WiringTestClock()
        let woken = Collected<String>()
        // One serial executor runs every sleeper, so they run in the order the clock resumes them.
        let serial = SerialTaskExecutor()
        var sleepers: [Task<Void, any Error>] = []
        for (name, seconds) in [("a", 3), ("b", 1), ("c", 2), ("d", 1), ("e", 2)] {
            sleepers.append(
                Task(executorPreference: serial) {
                    try await clock.sleep(for: .seconds(seconds))
                    woken.append(name)
                })
            await clock.waitForSleepers(sleepers.count)   // asleep before the next goes to sleep
        }
        // The last sleeper is on the clock once it asks to sleep; a job run after it on the
        // serial executor runs once its task has suspended too (resumed before then, it would
        // go on at once, ahead of the others).
        await Task(executorPreference: serial) {}.value

        await clock.advance(by: .seconds(3))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.values == ["b", "d", "c", "e", "a"])
    }

    @Test func advancingPartwayWakesOnlyTheSleepersThatAreDue() async throws {
        let clock = WiringTestClock()
        let woken = Collected<Int>()
        var sleepers: [Int: Task<Void, any Error>] = [:]
        for seconds in [1, 2, 3] {
            sleepers[seconds] = Task {
                try await clock.sleep(until: .init(offset: .seconds(seconds)))
                woken.append(seconds)
            }
        }
        await clock.waitForSleepers(3)

        await clock.advance(by: .milliseconds(1_500))
        #expect(clock.sleeperCount == 2)
        try await sleepers[1]?.value
        #expect(woken.values == [1])

        await clock.advance(to: .init(offset: .seconds(3)))
        #expect(clock.sleeperCount == 0)
        try await sleepers[2]?.value
        try await sleepers[3]?.value
        #expect(Set(woken.values) == [1, 2, 3])
    }

    @Test func aCancelledSleeperThrowsAtOnceAndLeavesTheOthersAsleep() async throws {
        let clock = WiringTestClock()
        let first = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        let cancelled = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(2)
        let last = Task { try await clock.sleep(for: .seconds(2)) }
        await clock.waitForSleepers(3)

        cancelled.cancel()
        // No time passes, and it throws all the same.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleeperCount == 2)
        #expect(clock.now == WiringTestClock.Instant())

        await clock.advance(by: .seconds(1))
        try await first.value
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        try await last.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutSleeping() async {
        let clock = WiringTestClock()
        await withThrowingTaskGroup(of: Void.self) { group in
            group.cancelAll()
            group.addTask { try await clock.sleep(for: .seconds(1)) }
            group.addTask { try await clock.sleep(until: clock.now) }   // due, but cancelled first
            for _ in 0..<2 {
                await #expect(throws: CancellationError.self) { try await group.next() }
            }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersCancelledWhileTheClockAdvancesEachEndExactlyOnce() async throws {
        // Cancelling and waking race: each sleeper either wakes or throws, once (a continuation
        // resumed twice would trap), and none is left behind. A sleeper that goes to sleep after
        // the clock passed its deadline returns at once.
        let clock = WiringTestClock()
        let sleepers = (0..<200).map { index in
            Task { try await clock.sleep(until: .init(offset: .milliseconds(index % 7 + 1))) }
        }
        let cancelling = Task {
            for (index, sleeper) in sleepers.enumerated() where index.isMultiple(of: 2) { sleeper.cancel() }
        }
        for _ in 0..<10 {
            await clock.advance(by: .milliseconds(1))
            await Task.yield()
        }
        await cancelling.value

        for (index, sleeper) in sleepers.enumerated() {
            if index.isMultiple(of: 2) {
                // Woken or cancelled, whichever came first.
                do { try await sleeper.value } catch { #expect(error is CancellationError) }
            } else {
                try await sleeper.value
            }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func nowMovesByExactlyWhatWasAdvanced() async {
        let clock = WiringTestClock()
        #expect(clock.now == WiringTestClock.Instant(offset: .zero))
        #expect(clock.minimumResolution == .zero)

        await clock.advance(by: .milliseconds(250))
        await clock.advance(by: .seconds(1))
        #expect(clock.now == WiringTestClock.Instant(offset: .milliseconds(1_250)))
        await clock.advance(to: .init(offset: .seconds(2)))
        #expect(clock.now.offset == .seconds(2))

        // Time never moves back.
        await clock.advance(by: .seconds(-1))
        await clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(2))

        let started = WiringTestClock(now: .init(offset: .seconds(60)))
        #expect(started.now.duration(to: .init(offset: .seconds(90))) == .seconds(30))
        #expect(started.now.advanced(by: .seconds(-60)) == WiringTestClock.Instant())
        #expect("\(started.now)" == "60.0 seconds")
    }

    @Test func sleepingUntilNowOrEarlierReturnsAtOnce() async throws {
        let clock = WiringTestClock()
        await clock.advance(by: .seconds(10))
        try await clock.sleep(until: .init(offset: .seconds(5)))
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func aLoopThatSleepsAgainFinishesWithOneAdvance() async throws {
        let clock = WiringTestClock()
        let ticks = Collected<WiringTestClock.Instant>()
        let ticking = Task {
            for _ in 0..<25 {
                try await clock.sleep(for: .seconds(60))   // a minute
                ticks.append(clock.now)
            }
        }
        await clock.waitForSleepers(1)

        await clock.advance(by: .seconds(25 * 60))   // 25 minutes, in one call
        // Each sleep woke at its own deadline, with the time set to it.
        #expect(ticks.values.map(\.offset) == (1...25).map { .seconds(60 * $0) })
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(25 * 60))
        await end(ticking)
    }

    @Test func aSleeperThatSleepsAgainWithinTheWindowWakesAgainAndBeyondItSleepsOn() async throws {
        let clock = WiringTestClock()
        let ticks = Collected<WiringTestClock.Instant>()
        let ticking = Task {
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(2))
                ticks.append(clock.now)
            }
        }
        await clock.waitForSleepers(1)

        await clock.advance(by: .seconds(5))
        #expect(ticks.values.map(\.offset) == [.seconds(2), .seconds(4)])
        #expect(clock.sleeperCount == 1)   // the third sleep, until 6 s
        #expect(clock.now.offset == .seconds(5))

        await clock.advance(by: .seconds(1))
        #expect(ticks.values.map(\.offset) == [.seconds(2), .seconds(4), .seconds(6)])
        await end(ticking)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test func sleepersOfOneDeadlineWakeInTheOrderTheyWentToSleepAtThatTime() async throws {
        let clock = WiringTestClock()
        let woken = Collected<String>()
        let serial = SerialTaskExecutor()
        var sleepers: [Task<Void, any Error>] = []
        for name in ["first", "second", "third", "fourth"] {
            sleepers.append(
                Task(executorPreference: serial) {
                    try await clock.sleep(until: .init(offset: .seconds(10)))
                    woken.append("\(name) at \(clock.now)")
                })
            await clock.waitForSleepers(sleepers.count)
        }
        // As above: the last sleeper's task has suspended once a job after it has run.
        await Task(executorPreference: serial) {}.value

        await clock.advance(by: .seconds(60))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.values == ["first", "second", "third", "fourth"].map { "\($0) at 10.0 seconds" })
        #expect(clock.now.offset == .seconds(60))
    }

    @Test func aCancelledAdvanceStopsBetweenDeadlines() async throws {
        let clock = WiringTestClock()
        let ticking = Task {
            while true { try await clock.sleep(for: .seconds(1)) }
        }
        await clock.waitForSleepers(1)

        // A million deadlines to step through: it would take many minutes.
        let advancing = Task { await clock.advance(by: .seconds(1_000_000)) }
        advancing.cancel()
        await advancing.value
        #expect(clock.now < WiringTestClock.Instant(offset: .seconds(1_000_000)))
        await end(ticking)
    }

    /// Every sleeper wakes, and the clock ends at the last deadline. (The order in which the woken
    /// tasks then run is the scheduler's: under load, one woken earlier may run later.)
    @Test func runWakesEverySleeper() async throws {
        let clock = WiringTestClock()
        try await clock.run()   // nobody asleep: nothing moves
        #expect(clock.now == WiringTestClock.Instant())

        let woken = Collected<Int>()
        let sleepers = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                woken.append(seconds)
            }
        }
        await clock.waitForSleepers(3)
        try await clock.run(timeout: .seconds(50))   // ample, on a machine busy with other tests
        #expect(clock.sleeperCount == 0)
        #expect(woken.values.sorted() == [1, 2, 3])
        #expect(clock.now.offset == .seconds(3))
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func runDrainsALoopThatSleepsAgainUntilItEnds() async throws {
        let clock = WiringTestClock()
        let ticks = Collected<Int>()
        let ticking = Task {
            // Sleeps of different lengths, each set from the time it woke at.
            for tick in 1...100 {
                try await clock.sleep(for: .seconds(tick % 3 + 1))
                ticks.append(tick)
            }
        }
        await clock.waitForSleepers(1)

        try await clock.run(timeout: .seconds(50))   // ample, on a machine busy with other tests
        #expect(ticks.values == Array(1...100))
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds((1...100).map { $0 % 3 + 1 }.reduce(0, +)))
        await end(ticking)
    }

    /// How a woken task is kept from its next sleep, longer than the clock's turns take.
    enum HeldOff: CustomTestStringConvertible, Sendable {
        /// Its thread blocked 5 ms, as the operating system does to a thread it takes the
        /// processor from (within the clock's least grace).
        case blocked
        /// Computing 60 ms on the processor, past the least grace: the clock sees the thread
        /// still running (Linux only).
        case busy

        static var cases: [HeldOff] {
            #if os(Linux)
            [.blocked, .busy]
            #else
            [.blocked]
            #endif
        }

        func hold() {
            switch self {
            case .blocked: Thread.sleep(forTimeInterval: 0.005)
            case .busy:
                let end = ContinuousClock.now.advanced(by: .milliseconds(60))
                while ContinuousClock.now < end {}
            }
        }

        var testDescription: String { self == .blocked ? "blocked 5 ms" : "busy 60 ms" }
    }

    @Test(arguments: HeldOff.cases)
    func runWaitsForAWokenTaskHeldOffBeforeItSleepsAgain(heldOff: HeldOff) async throws {
        let clock = WiringTestClock()
        let ticks = Collected<Int>()
        let ticking = Task {
            for tick in 1...3 {
                try await clock.sleep(for: .seconds(1))
                heldOff.hold()
                ticks.append(tick)
            }
        }
        await clock.waitForSleepers(1)

        try await clock.run(timeout: .seconds(50))
        #expect(clock.now.offset == .seconds(3))
        await end(ticking)
        #expect(ticks.values == Array(1...3))
    }

    @Test func runStopsAtItsStepBoundAndThrowsOnALoopThatNeverEnds() async throws {
        let clock = WiringTestClock()
        let ticking = Task {
            while true { try await clock.sleep(for: .seconds(1)) }
        }
        await clock.waitForSleepers(1)

        let error = await #expect(throws: WiringTestClock.RunLimitReached.self) {
            try await clock.run(maximumSteps: 50, timeout: .seconds(30))
        }
        #expect(error?.bound == .steps(50))
        #expect(error?.steps == 50)
        #expect(error?.sleeperCount == 1)
        #expect(error?.now == WiringTestClock.Instant(offset: .seconds(50)))
        #expect(clock.now.offset == .seconds(50))
        #expect(error?.description.hasPrefix("""
            error: WiringTestClock.run() reached its maximumSteps, 50 deadlines woken, with 1 task still asleep \
            at 50.0 seconds
            """) == true, "\(String(describing: error))")
        await end(ticking)
    }

    @Test func runStopsAtItsTimeoutAndThrowsOnALoopThatNeverEnds() async throws {
        let clock = WiringTestClock()
        let ticking = Task {
            while true { try await clock.sleep(for: .seconds(1)) }
        }
        await clock.waitForSleepers(1)

        let error = await #expect(throws: WiringTestClock.RunLimitReached.self) {
            try await clock.run(maximumSteps: .max, timeout: .milliseconds(200))
        }
        #expect(error?.bound == .timeout(.milliseconds(200)))
        // However many steps it took before the timeout (few, on a busy machine), each woke one second.
        #expect(error.map { WiringTestClock.Instant(offset: .seconds($0.steps)) } == clock.now)
        #expect(error?.sleeperCount == 1)
        #expect(error?.description.contains("its timeout, 0.2 seconds of real time") == true, "\(String(describing: error))")
        await end(ticking)
    }

    @Test func aCancelledRunThrowsCancellationError() async throws {
        let clock = WiringTestClock()
        let ticking = Task {
            while true { try await clock.sleep(for: .seconds(1)) }
        }
        await clock.waitForSleepers(1)
        let running = Task { try await clock.run(maximumSteps: .max, timeout: .seconds(30)) }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        await end(ticking)
    }

    @Test func waitingForSleepersReturnsOnceThereAreEnough() async throws {
        let clock = WiringTestClock()
        await clock.waitForSleepers(0)   // already enough

        let waiting = Task { await clock.waitForSleepers(2) }
        let sleepers = [Task { try await clock.sleep(for: .seconds(1)) }, Task { try await clock.sleep(for: .seconds(1)) }]
        await waiting.value
        #expect(clock.sleeperCount == 2)

        // A cancelled wait returns without the sleepers it waited for.
        let cancelledWait = Task { await clock.waitForSleepers(10) }
        cancelledWait.cancel()
        await cancelledWait.value
        #expect(clock.sleeperCount == 2)

        await clock.advance(by: .seconds(1))
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func itWorksThroughAnyClock() async throws {
        let clock = WiringTestClock()
        let app: any Clock<Duration> = clock
        let sleeper = Task { try await app.sleep(for: .seconds(30)) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(30))
        try await sleeper.value
    }
}

// WiringImmediateClock: every sleep returns at once and moves the time to its deadline. Nested,
// so that `--filter TestClock` runs it with the test clock's tests.
extension TestClockTests {
    @Suite(.serialized, .timeLimit(.minutes(4))) struct Immediate {
        @Test func sleepsReturnAtOnceAndMoveTheTimeByWhatWasSlept() async throws {
            let clock = WiringImmediateClock()
            #expect(clock.now == WiringImmediateClock.Instant())
            #expect(clock.minimumResolution == .zero)

            try await clock.sleep(for: .seconds(30))
            #expect(clock.now.offset == .seconds(30))
            try await clock.sleep(until: clock.now.advanced(by: .seconds(60)))
            #expect(clock.now.offset == .seconds(90))
            for _ in 0..<1_000 { try await clock.sleep(for: .seconds(3_600)) }   // an hour
            #expect(clock.now.offset == .seconds(90 + 3_600 * 1_000))

            // Time never moves back.
            try await clock.sleep(until: .init(offset: .seconds(1)))
            try await clock.sleep(for: .seconds(-5))
            #expect(clock.now.offset == .seconds(90 + 3_600 * 1_000))
        }

        @Test func aCancelledSleepThrowsAndLeavesTheTime() async throws {
            let clock = WiringImmediateClock(now: .init(offset: .seconds(5)))
            await withThrowingTaskGroup(of: Void.self) { group in
                group.cancelAll()
                group.addTask { try await clock.sleep(for: .seconds(10)) }
                await #expect(throws: CancellationError.self) { try await group.next() }
            }
            #expect(clock.now.offset == .seconds(5))
        }

        @Test func sleepsFromManyTasksLeaveTheTimeAtTheLatestDeadline() async throws {
            let clock = WiringImmediateClock()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for seconds in 1...50 {
                    group.addTask { try await clock.sleep(until: .init(offset: .seconds(seconds))) }
                }
                try await group.waitForAll()
            }
            #expect(clock.now.offset == .seconds(50))
        }

        @Test func appCodeGetsItThroughATestContainer() async throws {
            let container = Container()
            container.register((any Clock<Duration>).self) { _ in ContinuousClock() }
            let test = TestContainer(base: container)
            let clock = test.installImmediateClock()

            let appClock = try test.resolve((any Clock<Duration>).self)
            #expect(appClock as? WiringImmediateClock === clock)
            try await appClock.sleep(for: .seconds(300))
            #expect(clock.now.offset == .seconds(300))
            #expect(test.trace.render().hasSuffix("(override \"test\")"))
        }
    }
}

// MARK: Fixtures

/// Ends a task the test has done with: one the clock left asleep, by a test that failed, is
/// cancelled, so that the test fails instead of waiting for it until its time limit.
private func end(_ task: Task<Void, any Error>) async {
    task.cancel()
    _ = await task.result
}

/// Values appended from several tasks, under a lock.
private final class Collected<Value: Sendable>: Sendable {
    private let storage = LockedState<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }
}

/// Runs every job of the tasks that prefer it one at a time, in the order they are enqueued.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private final class SerialTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "TestClockTests.SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
