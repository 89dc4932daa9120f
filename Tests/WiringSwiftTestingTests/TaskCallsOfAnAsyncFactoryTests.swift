import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Calls a task an async factory starts makes through the factory's resolver: calls of their own
// (below the same path while the factory runs, new ones after), never in the factory's
// resolution, so the step that awaited the factory waits for none of them.
//
// Before the fix (hunt 16, aimed at f5805d6, which made the step wait, once the factory
// returned, for any call holding the factory's turn; each failed 3 runs of 3): the resolve of a
// factory's service waited for a task the factory started (a deadlock when that task waited for
// the caller; cancelling did not end it), the wait spun a core (2.6 s of CPU while a task's call
// slept 2 s), and it closed a wait cycle `Creations` could not see with a `.container` singleton
// being made, so two resolves hung for good.

final class TaskCallWarmed: Sendable {}
final class TaskCallService: Sendable {}

/// Waits for `task` at most `seconds`, never blocking a thread: whether it finished in time.
private func finishes<Value: Sendable>(_ task: Task<Value, any Error>, within seconds: Double) async -> Bool {
    let done = Locked(false)
    let watcher = Task {
        _ = try? await task.value
        done.set(true)
    }
    let deadline = Date().addingTimeInterval(seconds)
    while !done.get(), Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
    _ = watcher
    return done.get()
}

@Suite(.serialized) struct TaskCallsOfAnAsyncFactoryTests {
    /// An async factory starts a task that outlives it (a warm-up,
    /// `Task { try await r.resolve(Warmed.self) }`) and returns: the resolve of its service
    /// returns, though the task's call waits for something the caller does once it has the
    /// service. The caller's resolve runs in a task given a minute (it takes milliseconds; a busy
    /// parallel run can starve it of threads for seconds).
    @Test(.timeLimit(.minutes(4)))
    func aTaskTheFactoryStartedDoesNotKeepTheFactorysResolveFromReturning() async throws {
        let entered = TurnsSignal()
        let release = TurnsSignal()
        let warmUp = Locked<Task<TaskCallWarmed, any Error>?>(nil)
        let app = Container()
        app.registerAsync(TaskCallWarmed.self) { _ in
            entered.signal()
            await release.wait()   // given by the caller once it has the service
            return TaskCallWarmed()
        }
        app.registerAsync(TaskCallService.self) { r in
            warmUp.set(Task { try await r.resolve(TaskCallWarmed.self) })
            await entered.wait()   // the warm-up's call holds the turn now
            return TaskCallService()
        }
        let resolving = Task { try await app.async.resolve(TaskCallService.self) }
        let returned = await finishes(resolving, within: 60)
        resolving.cancel()
        let returnedOnceCancelled = returned ? true : await finishes(resolving, within: 5)
        release.signal()
        _ = try await resolving.value
        _ = try await warmUp.get()?.value
        #expect(returned, "resolve of the factory's service waited for a task the factory started")
        #expect(returnedOnceCancelled, "cancelling the caller did not end the wait either")
    }
}

// MARK: A deadlock between the factory's return and a `.container` singleton being made

final class TaskCallSettings: Sendable {}
final class TaskCallSession: Sendable {}
final class TaskCallSync: Sendable {}

extension TaskCallsOfAnAsyncFactoryTests {
    /// An async `.container` factory (`Settings`) starts a task that resolves `Sync` through its
    /// resolver; `Sync`'s factory resolves `Session` through a container it captured, while
    /// another task resolves `Session`, a `.container` singleton needing `Settings`. Both
    /// resolves finish: the settings are published as their factory returns. Run in a child
    /// process, which gives each resolve most of a minute.
    @Test(.timeLimit(.minutes(4)), .enabled(if: ChildProcess.isSupported))
    func aTaskOfASingletonsFactoryAndASingletonNeedingItDoNotDeadlock() throws {
        let outcome = try ChildProcess.run(
            "factory-task-and-singleton",
            arguments: ["--testing-library", "swift-testing", "--filter", "TaskCallDeadlockChildSuite"],
            timeout: 120)
        #expect(outcome.output.contains("task calls: settings resolved: true"), "\(outcome)")
        #expect(outcome.output.contains("task calls: session resolved: true"), "\(outcome)")
    }
}

/// Run only in a child process: see `aTaskOfASingletonsFactoryAndASingletonNeedingItDoNotDeadlock`.
@Suite(.enabled(if: ChildProcess.requestedCase == "factory-task-and-singleton"))
struct TaskCallDeadlockChildSuite {
    @Test func theFactorysReturnWaitsForATaskWaitingForItsSingleton() async throws {
        let syncEntered = TurnsSignal()
        let sessionEntered = TurnsSignal()
        let syncTask = Locked<Task<TaskCallSync, any Error>?>(nil)
        let app = Container()
        app.registerAsync(TaskCallSync.self) { _ in
            syncEntered.signal()   // one for the settings' factory, one for the test
            syncEntered.signal()
            await sessionEntered.wait()   // the session's maker holds its claim, and needs the settings
            try await Task.sleep(nanoseconds: 100_000_000)
            _ = try await app.async.resolve(TaskCallSession.self)
            return TaskCallSync()
        }
        app.registerAsync(TaskCallSession.self) { r in
            sessionEntered.signal()
            _ = try await r.resolve(TaskCallSettings.self)
            return TaskCallSession()
        }.scope(.container)
        app.registerAsync(TaskCallSettings.self) { r in
            syncTask.set(Task { try await r.resolve(TaskCallSync.self) })
            await syncEntered.wait()   // the task's call holds the turn now
            return TaskCallSettings()
        }.scope(.container)
        let settings = Task { try await app.async.resolve(TaskCallSettings.self) }
        await syncEntered.wait()
        let session = Task { try await app.async.resolve(TaskCallSession.self) }
        let settingsResolved = await finishes(settings, within: 60)
        let sessionResolved = await finishes(session, within: 30)
        print("task calls: settings resolved: \(settingsResolved)")
        print("task calls: session resolved: \(sessionResolved)")
        _ = syncTask
    }
}

// MARK: Isolated doubles making objects with @Injected properties

/// An actor a test runs on, whose overrides are isolated to it (`IsolatedDouble`).
actor TaskCallTestActor {
    func resolveRepositoryFromAnActorDouble() async throws -> (fake: Bool, roots: [ServiceKey], trace: String) {
        let app = Container()
        app.register((any AsyncMadeNetwork).self) { _ in AsyncMadeLiveNetwork() }
        app.register(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        let test = TestContainer(base: app)
        // Not isolated: a synchronous resolve of a double isolated to this actor requires await.
        test.override((any AsyncMadeNetwork).self, isolation: nil) { _ in AsyncMadeFakeNetwork() }
        test.override(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }   // runs on this actor
        let repository = try await test.async.resolve(AsyncMadeRepository.self)
        return ((try? repository.$network.get()) is AsyncMadeFakeNetwork, test.trace.roots.map(\.key), test.trace.render())
    }
}

extension TaskCallsOfAnAsyncFactoryTests {
    /// A double isolated to an actor (`withSynchronousResolver`) that makes an
    /// object with an `@Injected` property resolves it in its resolution, overridden.
    @Test(.timeLimit(.minutes(4)))
    func anActorIsolatedDoubleMakingAnObjectResolvesItsPropertyInItsResolution() async throws {
        let outcome = try await TaskCallTestActor().resolveRepositoryFromAnActorDouble()
        #expect(outcome.fake, "\(outcome.trace)")
        #expect(outcome.roots == [ServiceKey(AsyncMadeRepository.self)], "\(outcome.trace)")
    }

    /// The same from a main-actor double.
    @MainActor @Test(.timeLimit(.minutes(4)))
    func aMainActorDoubleMakingAnObjectResolvesItsPropertyInItsResolution() async throws {
        let app = Container()
        app.register((any AsyncMadeNetwork).self) { _ in AsyncMadeLiveNetwork() }
        app.register(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        let test = TestContainer(base: app)
        test.override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() }
        test.override(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        let repository = try await test.async.resolve(AsyncMadeRepository.self)
        #expect((try? repository.$network.get()) is AsyncMadeFakeNetwork)
        #expect(test.trace.roots.map(\.key) == [ServiceKey(AsyncMadeRepository.self)], "\(test.trace.render())")
    }
}

// MARK: Leaks

final class TaskCallKeepsResolver: @unchecked Sendable {
    let resolver: AsyncResolver
    init(_ resolver: AsyncResolver) { self.resolver = resolver }
}

extension TaskCallsOfAnAsyncFactoryTests {
    /// A `.container` instance that keeps its resolver, whose factory started a task that made a
    /// call as it returned (and still holds the task-local factory), does not keep its container,
    /// nor the singletons its resolution made, once the container goes and that call ended.
    @Test(.timeLimit(.minutes(4)))
    func anInstanceKeepingItsResolverPastATaskOfItsFactoryKeepsNothingOfTheResolution() async throws {
        weak var weakContainer: Container?
        weak var weakKeeper: TaskCallKeepsResolver?
        weak var weakService: TaskCallService?
        let warmUp = Locked<Task<TaskCallWarmed, any Error>?>(nil)
        let later = TurnsSignal()
        let called = TurnsSignal()
        try await {
            let entered = TurnsSignal()
            let container = Container()
            container.register(TaskCallService.self) { _ in TaskCallService() }.scope(.container)
            container.registerAsync(TaskCallWarmed.self) { _ in
                entered.signal()
                try await Task.sleep(nanoseconds: 50_000_000)
                return TaskCallWarmed()
            }
            container.registerAsync(TaskCallKeepsResolver.self) { r in
                _ = try await r.resolve(TaskCallService.self)
                warmUp.set(Task {
                    let warmed = try await r.resolve(TaskCallWarmed.self)
                    called.signal()
                    await later.wait()   // the task, and its task-local factory, outlive the resolve
                    return warmed
                })
                await entered.wait()
                return TaskCallKeepsResolver(r)
            }.scope(.container)
            let keeper = try await container.async.resolve(TaskCallKeepsResolver.self)
            weakContainer = container
            weakKeeper = keeper
            weakService = try container.resolve(TaskCallService.self)
        }()
        await called.wait()   // a call in progress holds its container, as any resolve does
        #expect(weakContainer == nil)
        #expect(weakKeeper == nil)
        #expect(weakService == nil)
        later.signal()
        _ = try await warmUp.get()?.value
    }
}

// MARK: Where a task's call is recorded

extension TaskCallsOfAnAsyncFactoryTests {
    /// A call a task of the factory makes through its resolver is a call of its own, a root of
    /// the trace, whether it is made while the factory runs or once it returned. (Under f5805d6,
    /// one made while the factory ran was recorded under it, and the factory's resolve waited
    /// for it.)
    @Test(.timeLimit(.minutes(4)))
    func aTasksCallsAreRootsOfTheirOwnWhileTheFactoryRunsAndAfter() async throws {
        let entered = TurnsSignal()
        let returned = TurnsSignal()
        let during = Locked<Task<TaskCallWarmed, any Error>?>(nil)
        let after = Locked<Task<TaskCallWarmed, any Error>?>(nil)
        let app = Container()
        app.registerAsync(TaskCallWarmed.self) { _ in
            entered.signal()
            try await Task.sleep(nanoseconds: 20_000_000)
            return TaskCallWarmed()
        }
        app.registerAsync(TaskCallService.self) { r in
            during.set(Task { try await r.resolve(TaskCallWarmed.self) })
            after.set(Task {
                await returned.wait()
                return try await r.resolve(TaskCallWarmed.self)
            })
            await entered.wait()
            return TaskCallService()
        }
        let test = TestContainer(base: app)
        _ = try await test.async.resolve(TaskCallService.self)
        returned.signal()
        _ = try await during.get()?.value
        _ = try await after.get()?.value
        let roots = test.trace.roots
        #expect(Set(roots.map(\.key)) == [ServiceKey(TaskCallService.self), ServiceKey(TaskCallWarmed.self)], "\(test.trace.render())")
        #expect(roots.count == 3, "\(test.trace.render())")
        #expect(roots.first { $0.key == ServiceKey(TaskCallService.self) }?.children.isEmpty == true, "\(test.trace.render())")
    }
}

// MARK: The main actor

@MainActor final class TaskCallViewModel {}
final class TaskCallScreen: Sendable {}

extension TaskCallsOfAnAsyncFactoryTests {
    /// Resolved from the main actor, a factory whose task's call needs the main actor: both
    /// finish (under f5805d6 the step waited there for the call, yielding).
    @MainActor @Test(.timeLimit(.minutes(4)))
    func waitingOnTheMainActorForATaskThatNeedsTheMainActorFinishes() async throws {
        let entered = TurnsSignal()
        let warmUp = Locked<Task<TaskCallScreen, any Error>?>(nil)
        let app = Container()
        app.registerMainActor(TaskCallViewModel.self) { _ in TaskCallViewModel() }
        app.registerAsync(TaskCallScreen.self) { r in
            entered.signal()
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await r.resolve(TaskCallViewModel.self)
            return TaskCallScreen()
        }
        app.registerAsync(TaskCallService.self) { r in
            warmUp.set(Task { try await r.resolve(TaskCallScreen.self) })
            await entered.wait()
            return TaskCallService()
        }
        let resolving = Task { @MainActor in try await app.async.resolve(TaskCallService.self) }
        let returned = await finishes(resolving, within: 60)
        #expect(returned)
        _ = try await warmUp.get()?.value
    }
}
