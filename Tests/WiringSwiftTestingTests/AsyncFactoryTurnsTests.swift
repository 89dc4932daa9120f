import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// An async factory's calls take turns in its resolution (`RunningFactory`): its resolver's, and
// the `@Injected` properties of what its code makes. A task the factory started may still hold
// the turn when the factory returns: the step that awaited the factory goes on only once it is
// given back, and no call takes the turn after that.
//
// Before the fix (hunt 15, aimed at this session's change that let `@Injected` take the turn):
// the step went on while a task's property still resolved in its resolution, and the process
// stopped ("a step popped out of order", "Index out of range", a segmentation fault; a data race
// under Thread Sanitizer) in 10 runs of 10 of a child making 2,000 objects.

/// App code that reads its network from a property, made by an async factory.
final class TurnsRepository: @unchecked Sendable {
    @Injected var network: any AsyncMadeNetwork
}

/// A service whose async factory holds its resolution's turn until released.
final class TurnsSlow: Sendable {}

/// Whether the running factory is the repository's, whose `async let` child resolves `TurnsSlow`.
enum TurnsFlag {
    @TaskLocal static var inRepository = false
}

/// A counting signal for tasks: `wait()` takes one permit, waiting for `signal()` if none.
final class TurnsSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var permits = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func signal() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiters.isEmpty {
                permits += 1
                return nil
            }
            return waiters.removeFirst()
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if permits > 0 {
                    permits -= 1
                    return true
                }
                waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// An app whose repository's async factory makes the repository while an `async let` child of it
/// resolves `TurnsSlow`, which holds the resolution's turn until the repository is made.
private func makeBusyTurnApp(registersNetwork: Bool) -> Container {
    let started = TurnsSignal()
    let release = TurnsSignal()
    let app = Container()
    if registersNetwork {
        app.register((any AsyncMadeNetwork).self) { _ in AsyncMadeLiveNetwork() }
    }
    app.registerAsync(TurnsSlow.self) { _ in
        if TurnsFlag.inRepository {
            started.signal()
            await release.wait()
        }
        return TurnsSlow()
    }
    app.registerAsync(TurnsRepository.self) { r in
        try await TurnsFlag.$inRepository.withValue(true) {
            async let slow = r.resolve(TurnsSlow.self)
            await started.wait()   // the child holds the turn now
            let repository = TurnsRepository()
            release.signal()
            _ = try await slow
            return repository
        }
    }
    return app
}

@Suite struct AsyncFactoryTurnsTests {
    /// Known limitation: an object made while another task of the same factory holds the turn
    /// (an `async let` resolving) resolves its properties as a concurrent call of the factory
    /// does, in a call of its own: recorded as a root of its own, not under the factory
    /// (ProvidersLaziesAndInjection.md says so).
    @Test(.timeLimit(.minutes(1)))
    func anInjectedPropertyMadeWhileAnotherTaskOfTheFactoryHoldsTheTurnIsRecordedUnderTheFactory() async throws {
        let test = TestContainer(base: makeBusyTurnApp(registersNetwork: true))
        test.override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() }
        let repository = try await test.async.resolve(TurnsRepository.self)
        #expect((try? repository.$network.get()) is AsyncMadeFakeNetwork)
        withKnownIssue("made while another task of the factory holds the turn: a call of its own") {
            #expect(test.trace.roots.map(\.key) == [ServiceKey(TurnsRepository.self)], "\(test.trace.render())")
        }
    }

    /// Known limitation, as above: verification does not hear of such a property that nothing
    /// answers (a concurrent call's own failures reach the factory as errors; a property's
    /// does not).
    @Test(.timeLimit(.minutes(1)))
    func verifyingReportsAnInjectedPropertyMadeWhileAnotherTaskOfTheFactoryHoldsTheTurn() async {
        let report = await TestContainer(base: makeBusyTurnApp(registersNetwork: false)).verifyWiringAsync()
        withKnownIssue("made while another task of the factory holds the turn: not verified") {
            #expect(!report.isComplete, "\(report)")
        }
    }

    /// A task of an async factory makes an object whose `@Injected` property's factory is still
    /// running, in the async factory's resolution, when the async factory returns: the step that
    /// awaited it waits for the property, which resolves (a blocking factory makes the timing
    /// certain).
    @Test(.timeLimit(.minutes(2)), .enabled(if: ChildProcess.isSupported))
    func aPropertyStillResolvingWhenItsAsyncFactoryReturnsNeitherCrashesNorFails() throws {
        let outcome = try ChildProcess.run(
            "turn-held-as-factory-returns",
            arguments: ["--testing-library", "swift-testing", "--filter", "TurnHeldAsTheFactoryReturnsChildSuite"],
            timeout: 60)
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.output.contains("turns: the property resolved:"), "\(outcome)")
    }

    /// The same race as an app writes it, with nothing blocking: an async factory starts
    /// `Task { Holder() }` and returns at once, 10,000 times; up to three children, stopping at
    /// the first that does not live.
    @Test(.timeLimit(.minutes(3)), .enabled(if: ChildProcess.isSupported))
    func aTaskAnAsyncFactoryStartsMakingAnObjectAsItReturnsNeitherCrashesNorFails() throws {
        // A race: up to three children, stopping at the first that does not live.
        for _ in 0..<3 {
            let outcome = try ChildProcess.run(
                "task-races-factory-return",
                arguments: ["--testing-library", "swift-testing", "--filter", "TaskRacingTheFactorysReturnChildSuite"],
                timeout: 120)
            #expect(outcome.succeeded, "\(outcome)")
            #expect(outcome.output.contains("properties resolved"), "\(outcome)")
            if !outcome.succeeded { break }
        }
    }
}

// MARK: An object made by a task the async factory started, while the factory returns

/// Runs its jobs on a serial Dispatch queue of its own, never on the concurrency pool: a task on
/// it may block (as a synchronous factory that waits does) without starving the pool.
final class TurnsSerialExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "TurnsSerialExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

final class TurnsMade: Sendable {}
final class TurnsLate: Sendable {}
final class TurnsOther: Sendable {}
final class TurnsLateHolder: @unchecked Sendable {
    @Injected var late: TurnsLate
}

/// A value shared with a factory, read after it ran.
final class TurnsBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value { lock.withLock { value } }
}

/// Run only in a child process: an async factory starts a task that makes an object with an
/// `@Injected` property while the factory runs; the property's (synchronous) factory is still
/// running, in the async factory's resolution, when the async factory returns and its
/// resolution finishes; then it resolves one more dependency through its resolver.
@Suite(.enabled(if: ChildProcess.requestedCase == "turn-held-as-factory-returns"))
struct TurnHeldAsTheFactoryReturnsChildSuite {
    @Test func aPropertyStillResolvingWhenTheFactoryReturns() async throws {
        let executor = TurnsSerialExecutor()
        let entered = TurnsSignal()
        let release = DispatchSemaphore(value: 0)
        let holderTask = TurnsBox<Task<TurnsLateHolder, Never>?>(nil)
        let app = Container()
        app.register(TurnsOther.self) { _ in TurnsOther() }
        app.register(TurnsLate.self) { r in
            entered.signal()
            _ = release.wait(timeout: .now() + 20)
            _ = try r.resolve(TurnsOther.self)
            return TurnsLate()
        }
        app.registerAsync(TurnsMade.self) { _ in
            holderTask.set(Task(executorPreference: executor) { TurnsLateHolder() })
            await entered.wait()   // the task is resolving the property, in this factory's resolution
            return TurnsMade()
        }
        let test = TestContainer(base: app)
        _ = try await test.async.resolve(TurnsMade.self)
        release.signal()
        let holder = await (try #require(holderTask.get())).value
        print("turns: the property resolved: \((try? holder.$late.get()) != nil)")
    }
}

final class TurnsQuick: Sendable {}
final class TurnsQuickHolder: @unchecked Sendable {
    @Injected var quick: TurnsQuick
    @Injected var other: TurnsOther
}

/// Run only in a child process: the race of `aPropertyStillResolvingWhenTheFactoryReturns` with
/// nothing blocking, as an app writes it: an async factory starts a task that makes an object with
/// `@Injected` properties, and returns at once.
@Suite(.enabled(if: ChildProcess.requestedCase == "task-races-factory-return"))
struct TaskRacingTheFactorysReturnChildSuite {
    @Test func manyFactoriesStartingATaskThatMakesAnObject() async throws {
        let tasks = TurnsBox<[Task<TurnsQuickHolder, Never>]>([])
        let app = Container()
        app.register(TurnsOther.self) { _ in TurnsOther() }
        app.register(TurnsQuick.self) { r in
            _ = try r.resolve(TurnsOther.self)
            return TurnsQuick()
        }
        app.registerAsync(TurnsMade.self) { _ in
            let task = Task { TurnsQuickHolder() }
            tasks.set(tasks.get() + [task])
            return TurnsMade()
        }
        for _ in 0..<10_000 {
            let test = TestContainer(base: app)
            _ = try await test.async.resolve(TurnsMade.self)
        }
        var resolved = 0
        for task in tasks.get() where (try? await task.value.$quick.get()) != nil { resolved += 1 }
        print("turns: \(resolved) of \(tasks.get().count) properties resolved")
    }
}

