import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Only an async factory's own task resolves in its resolution (`RunningFactory`): its resolver's
// calls and the `@Injected` properties of what its code makes. A task it starts (`async let`, a
// group, `Task {}`) shares its task-locals but makes calls of its own, below the same path while
// the factory runs and new ones after, so nothing but the factory's task is in the resolution
// when the step that awaited the factory goes on.
//
// Before the fix (hunt 15, aimed at this session's change that let `@Injected` take the turn):
// a task the factory started could hold the turn as the factory returned, and the step went on
// beside it: the process stopped ("a step popped out of order", "Index out of range", a
// segmentation fault; a data race under Thread Sanitizer) in 10 runs of 10 of a child making
// 2,000 objects. A first fix made the step wait for such a task's call; hunt 16 showed that wait
// spinning and deadlocking (`TaskCallsOfAnAsyncFactoryTests`).

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
    /// An object the factory's own task makes while an `async let` of it resolves: the turn is
    /// the factory's task's, so its property is the factory's own resolve, recorded under it;
    /// the `async let`'s call, from another task, is a call of its own below the same path, a
    /// root of the trace of its own.
    ///
    /// Before (f5805d6): whichever task took the turn first had it, so the `async let` did, and
    /// the property resolved outside the factory (hunt 15).
    @Test(.timeLimit(.minutes(4)))
    func anInjectedPropertyOfWhatTheFactorysTaskMakesIsRecordedUnderItWhileAnAsyncLetResolves() async throws {
        let test = TestContainer(base: makeBusyTurnApp(registersNetwork: true))
        test.override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() }
        let repository = try await test.async.resolve(TurnsRepository.self)
        #expect((try? repository.$network.get()) is AsyncMadeFakeNetwork)
        let roots = test.trace.roots
        #expect(Set(roots.map(\.key)) == [ServiceKey(TurnsRepository.self), ServiceKey(TurnsSlow.self)])
        #expect(
            roots.first { $0.key == ServiceKey(TurnsRepository.self) }?.children.map(\.key)
                == [ServiceKey((any AsyncMadeNetwork).self)], "\(test.trace.render())")
    }

    /// The same property, when nothing answers it, is reported by verification.
    @Test(.timeLimit(.minutes(4)))
    func verifyingReportsAnInjectedPropertyOfWhatTheFactorysTaskMakesWhileAnAsyncLetResolves() async {
        let report = await TestContainer(base: makeBusyTurnApp(registersNetwork: false)).verifyWiringAsync()
        #expect(!report.isComplete, "\(report)")
        #expect(
            report.problems.contains { $0.identifier == "missing-dependency" && "\($0)".contains("@Injected") },
            "\(report)")
    }

    /// A task of an async factory makes an object whose `@Injected` property's factory is still
    /// running when the async factory returns: a call of its own, it resolves, and the step goes
    /// on (a blocking factory makes the timing certain).
    @Test(.timeLimit(.minutes(4)), .enabled(if: ChildProcess.isSupported))
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
    @Test(.timeLimit(.minutes(4)), .enabled(if: ChildProcess.isSupported))
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
        let holderTask = Locked<Task<TurnsLateHolder, Never>?>(nil)
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
        let tasks = Locked<[Task<TurnsQuickHolder, Never>]>([])
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

