import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Hunt 16: aimed at f5805d6 (and ab55857): an async factory's calls take turns in its resolution
// through `RunningFactory`, and `Resolution.makeAwaited` waits, once the factory returned, until
// no call holds the turn (`RunningFactory.returned()`, a `Task.yield` loop).
//
// Defects (each failed 3 runs of 3 on f5805d6): the resolve of a factory's service waits for a
// task the factory started (a deadlock when that task waits for the caller, and cancelling does
// not end it); the wait spins a core; and it closes a wait cycle `Creations` cannot see with a
// `.container` singleton being made, so two resolves hang for good. Held (tests kept, passing):
// isolated doubles (actor, main actor) making objects with `@Injected`, where a task's call is
// recorded, the wait on the main actor for a task that needs it, and leaks of a kept resolver.
// Thread Sanitizer: no report in this suite, AsyncFactoryTurnsTests,
// PropertyInjectionInAsyncFactoriesTests and ConcurrentAsyncCallsTests.

final class Hunt16Warmed: Sendable {}
final class Hunt16Service: Sendable {}

/// Waits for `task` at most `seconds`, never blocking a thread: whether it finished in time.
private func finishes<Value: Sendable>(_ task: Task<Value, any Error>, within seconds: Double) async -> Bool {
    let done = TurnsBox(false)
    let watcher = Task {
        _ = try? await task.value
        done.set(true)
    }
    let deadline = Date().addingTimeInterval(seconds)
    while !done.get(), Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
    _ = watcher
    return done.get()
}

/// The CPU time this process used so far, all threads.
private func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

@Suite(.serialized) struct Hunt16Tests {
    /// What goes wrong: an async factory starts a task that outlives it (a warm-up,
    /// `Task { try await r.resolve(Hunt16Warmed.self) }`) and returns. The docs
    /// (AsyncAndMainActor.md) say "a task that outlives the factory starts afresh": the factory
    /// is done, and nothing says its resolve waits for the tasks it started. But when the task's
    /// call took the factory's turn before the factory returned, `resolve` of the factory's
    /// service does not return until that call is over: here the warmed service waits for
    /// something the caller does once it has the service (a stream it feeds, a signal), so the
    /// caller's `resolve` never returns: a deadlock the app cannot see, and no cancellation
    /// ends it (the wait is a `Task.yield` loop that never checks it).
    ///
    /// Likely cause: `RunningFactory.returned()` (AsyncResolver.swift), awaited by
    /// `Resolution.makeAwaited` (ResolutionStep+Async.swift) once the factory returned, loops
    /// until `calls == 0`, i.e. until every call that took the turn while the factory ran (an
    /// unstructured task's included) has ended, however long it takes. The step waits for work of
    /// a task that is no part of the factory; the task's call could instead be detached from the
    /// resolution (continue as a new call) rather than the step waiting for it.
    ///
    /// Bounded: the caller's `resolve` runs in a task, given 5 seconds (it takes milliseconds when
    /// the factory returns without the task holding the turn); the warmed service is released
    /// afterwards so that nothing hangs.
    @Test(.timeLimit(.minutes(1)))
    func aTaskTheFactoryStartedDoesNotKeepTheFactorysResolveFromReturning() async throws {
        let entered = TurnsSignal()
        let release = TurnsSignal()
        let warmUp = TurnsBox<Task<Hunt16Warmed, any Error>?>(nil)
        let app = Container()
        app.registerAsync(Hunt16Warmed.self) { _ in
            entered.signal()
            await release.wait()   // given by the caller once it has the service
            return Hunt16Warmed()
        }
        app.registerAsync(Hunt16Service.self) { r in
            warmUp.set(Task { try await r.resolve(Hunt16Warmed.self) })
            await entered.wait()   // the warm-up's call holds the turn now
            return Hunt16Service()
        }
        let resolving = Task { try await app.async.resolve(Hunt16Service.self) }
        let returned = await finishes(resolving, within: 5)
        resolving.cancel()
        let returnedOnceCancelled = returned ? true : await finishes(resolving, within: 2)
        release.signal()
        _ = try await resolving.value
        _ = try await warmUp.get()?.value
        #expect(returned, "resolve of the factory's service waited for a task the factory started")
        #expect(returnedOnceCancelled, "cancelling the caller did not end the wait either")
    }

    /// What goes wrong: while the step that awaited an async factory waits for a call a task of
    /// the factory still makes in its resolution (see above), it spins: a whole core busy for as
    /// long as that call takes, though nothing is to be done. Here the task's call waits two
    /// seconds (a sleeping factory, a network round-trip as apps have) and the process burns about
    /// two seconds of CPU meanwhile (measured: 2.6 s, 3 runs of 3, for the 2 s wait); a suspended wait costs nothing. On
    /// the main actor (a view model resolving its service) the main thread is as busy.
    ///
    /// Likely cause: `RunningFactory.returned()` (AsyncResolver.swift) waits with
    /// `while running.withLock({ $0.calls > 0 }) { await Task.yield() }`, a busy loop, rather
    /// than suspending on a continuation that `endTurn(of:)` resumes when the last call ends.
    @Test(.timeLimit(.minutes(1)))
    func waitingForATaskOfTheFactoryDoesNotSpin() async throws {
        let entered = TurnsSignal()
        let warmUp = TurnsBox<Task<Hunt16Warmed, any Error>?>(nil)
        let app = Container()
        app.registerAsync(Hunt16Warmed.self) { _ in
            entered.signal()
            try await Task.sleep(nanoseconds: 2_000_000_000)
            return Hunt16Warmed()
        }
        app.registerAsync(Hunt16Service.self) { r in
            warmUp.set(Task { try await r.resolve(Hunt16Warmed.self) })
            await entered.wait()   // the warm-up's call holds the turn now
            return Hunt16Service()
        }
        let cpuBefore = processCPUSeconds()
        let started = Date()
        _ = try await app.async.resolve(Hunt16Service.self)
        let wall = Date().timeIntervalSince(started)
        let cpu = processCPUSeconds() - cpuBefore
        _ = try await warmUp.get()?.value
        #expect(cpu < 0.5, "resolve took \(wall) s and \(cpu) s of CPU, spinning while it waited")
    }
}

// MARK: A deadlock between the factory's return and a `.container` singleton being made

final class Hunt16Settings: Sendable {}
final class Hunt16Session: Sendable {}
final class Hunt16Sync: Sendable {}

extension Hunt16Tests {
    /// What goes wrong: nothing but documented calls, and two resolves never return. An async
    /// `.container` factory (`Hunt16Settings`) starts a task that resolves `Hunt16Sync` through
    /// its resolver (taking the factory's turn); `Hunt16Sync`'s factory resolves `Hunt16Session`
    /// through a container it captured (AsyncAndMainActor.md: such calls are supported "from its
    /// own task or tasks it starts, while it runs"). Meanwhile another task resolves
    /// `Hunt16Session`, a `.container` singleton whose factory needs `Hunt16Settings`. Once the
    /// settings factory returns, its step waits for the task's call (`RunningFactory.returned()`)
    /// before it publishes the settings; the task's call waits for the session; the session's
    /// maker waits for the settings. Nobody backs off and nothing reports a cycle (there is none
    /// in the registrations: before f5805d6 the settings were published as their factory returned,
    /// and all three calls finished). Both resolves hang for good; the waiting step spins a core.
    ///
    /// Likely cause: the step's wait for the calls holding the turn is not a wait `Creations`
    /// knows of: the chain "captured-container call waits for the session's claim → the session's
    /// maker waits for the settings' claim → the settings' maker (the step) waits for the task's
    /// call → that call awaits the captured-container call" closes through it, so `waitCycle`
    /// never sees the cycle, and no one backs off.
    ///
    /// Run in a child process, which gives each resolve 5 seconds (they take milliseconds when
    /// nothing waits for the task).
    @Test(.timeLimit(.minutes(2)), .enabled(if: ChildProcess.isSupported))
    func aTaskOfASingletonsFactoryAndASingletonNeedingItDoNotDeadlock() throws {
        let outcome = try ChildProcess.run(
            "hunt16-return-waits-for-a-claim",
            arguments: ["--testing-library", "swift-testing", "--filter", "Hunt16DeadlockChildSuite"],
            timeout: 60)
        #expect(outcome.output.contains("hunt16: settings resolved: true"), "\(outcome)")
        #expect(outcome.output.contains("hunt16: session resolved: true"), "\(outcome)")
    }
}

/// Run only in a child process: see `aTaskOfASingletonsFactoryAndASingletonNeedingItDoNotDeadlock`.
@Suite(.enabled(if: ChildProcess.requestedCase == "hunt16-return-waits-for-a-claim"))
struct Hunt16DeadlockChildSuite {
    @Test func theFactorysReturnWaitsForATaskWaitingForItsSingleton() async throws {
        let syncEntered = TurnsSignal()
        let sessionEntered = TurnsSignal()
        let syncTask = TurnsBox<Task<Hunt16Sync, any Error>?>(nil)
        let app = Container()
        app.registerAsync(Hunt16Sync.self) { _ in
            syncEntered.signal()   // one for the settings' factory, one for the test
            syncEntered.signal()
            await sessionEntered.wait()   // the session's maker holds its claim, and needs the settings
            try await Task.sleep(nanoseconds: 100_000_000)
            _ = try await app.async.resolve(Hunt16Session.self)
            return Hunt16Sync()
        }
        app.registerAsync(Hunt16Session.self) { r in
            sessionEntered.signal()
            _ = try await r.resolve(Hunt16Settings.self)
            return Hunt16Session()
        }.scope(.container)
        app.registerAsync(Hunt16Settings.self) { r in
            syncTask.set(Task { try await r.resolve(Hunt16Sync.self) })
            await syncEntered.wait()   // the task's call holds the turn now
            return Hunt16Settings()
        }.scope(.container)
        let settings = Task { try await app.async.resolve(Hunt16Settings.self) }
        await syncEntered.wait()
        let session = Task { try await app.async.resolve(Hunt16Session.self) }
        let settingsResolved = await finishes(settings, within: 5)
        let sessionResolved = await finishes(session, within: 1)
        print("hunt16: settings resolved: \(settingsResolved)")
        print("hunt16: session resolved: \(sessionResolved)")
        _ = syncTask
    }
}

// MARK: Isolated doubles making objects with @Injected properties

/// An actor a test runs on, whose overrides are isolated to it (`IsolatedDouble`).
actor Hunt16TestActor {
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

extension Hunt16Tests {
    /// Held so far: a double isolated to an actor (`withSynchronousResolver`) that makes an
    /// object with an `@Injected` property resolves it in its resolution, overridden.
    @Test(.timeLimit(.minutes(1)))
    func anActorIsolatedDoubleMakingAnObjectResolvesItsPropertyInItsResolution() async throws {
        let outcome = try await Hunt16TestActor().resolveRepositoryFromAnActorDouble()
        #expect(outcome.fake, "\(outcome.trace)")
        #expect(outcome.roots == [ServiceKey(AsyncMadeRepository.self)], "\(outcome.trace)")
    }

    /// Held so far: the same from a main-actor double.
    @MainActor @Test(.timeLimit(.minutes(1)))
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

final class Hunt16KeepsResolver: @unchecked Sendable {
    let resolver: AsyncResolver
    init(_ resolver: AsyncResolver) { self.resolver = resolver }
}

extension Hunt16Tests {
    /// Held so far: a `.container` instance that keeps its resolver, whose factory started a task
    /// that made a call in its turn as it returned (and still holds the task-local factory), does
    /// not keep its container, nor the singletons its resolution made, once the container goes.
    @Test(.timeLimit(.minutes(1)))
    func anInstanceKeepingItsResolverPastATaskOfItsFactoryKeepsNothingOfTheResolution() async throws {
        weak var weakContainer: Container?
        weak var weakKeeper: Hunt16KeepsResolver?
        weak var weakService: Hunt16Service?
        let warmUp = TurnsBox<Task<Hunt16Warmed, any Error>?>(nil)
        let later = TurnsSignal()
        try await {
            let entered = TurnsSignal()
            let container = Container()
            container.register(Hunt16Service.self) { _ in Hunt16Service() }.scope(.container)
            container.registerAsync(Hunt16Warmed.self) { _ in
                entered.signal()
                try await Task.sleep(nanoseconds: 50_000_000)
                return Hunt16Warmed()
            }
            container.registerAsync(Hunt16KeepsResolver.self) { r in
                _ = try await r.resolve(Hunt16Service.self)
                warmUp.set(Task {
                    let warmed = try await r.resolve(Hunt16Warmed.self)
                    await later.wait()   // the task, and its task-local factory, outlive the resolve
                    return warmed
                })
                await entered.wait()
                return Hunt16KeepsResolver(r)
            }.scope(.container)
            let keeper = try await container.async.resolve(Hunt16KeepsResolver.self)
            weakContainer = container
            weakKeeper = keeper
            weakService = try container.resolve(Hunt16Service.self)
        }()
        #expect(weakContainer == nil)
        #expect(weakKeeper == nil)
        #expect(weakService == nil)
        later.signal()
        _ = try await warmUp.get()?.value
    }
}

// MARK: Where a task's call is recorded

extension Hunt16Tests {
    /// Held so far: a call a task of the factory makes through its resolver while the factory
    /// runs is recorded under the factory, even when it ends after the factory returned; one made
    /// once the factory returned is a root of its own (a new call).
    @Test(.timeLimit(.minutes(1)))
    func aTasksCallWhileTheFactoryRunsIsRecordedUnderItAndOneAfterItReturnedIsARoot() async throws {
        let entered = TurnsSignal()
        let returned = TurnsSignal()
        let during = TurnsBox<Task<Hunt16Warmed, any Error>?>(nil)
        let after = TurnsBox<Task<Hunt16Warmed, any Error>?>(nil)
        let app = Container()
        app.registerAsync(Hunt16Warmed.self) { _ in
            entered.signal()
            try await Task.sleep(nanoseconds: 20_000_000)
            return Hunt16Warmed()
        }
        app.registerAsync(Hunt16Service.self) { r in
            during.set(Task { try await r.resolve(Hunt16Warmed.self) })
            after.set(Task {
                await returned.wait()
                return try await r.resolve(Hunt16Warmed.self)
            })
            await entered.wait()
            return Hunt16Service()
        }
        let test = TestContainer(base: app)
        _ = try await test.async.resolve(Hunt16Service.self)
        returned.signal()
        _ = try await during.get()?.value
        _ = try await after.get()?.value
        let roots = test.trace.roots
        #expect(roots.map(\.key) == [ServiceKey(Hunt16Service.self), ServiceKey(Hunt16Warmed.self)], "\(test.trace.render())")
        #expect(roots.first?.children.map(\.key) == [ServiceKey(Hunt16Warmed.self)], "\(test.trace.render())")
    }
}

// MARK: The main actor

@MainActor final class Hunt16ViewModel {}
final class Hunt16Screen: Sendable {}

extension Hunt16Tests {
    /// Held so far: resolved from the main actor, the step that awaited the factory waits there
    /// (`returned()` runs where its caller runs) for a task's call that needs the main actor: the
    /// wait yields, so the main-actor factory runs and both finish.
    @MainActor @Test(.timeLimit(.minutes(1)))
    func waitingOnTheMainActorForATaskThatNeedsTheMainActorFinishes() async throws {
        let entered = TurnsSignal()
        let warmUp = TurnsBox<Task<Hunt16Screen, any Error>?>(nil)
        let app = Container()
        app.registerMainActor(Hunt16ViewModel.self) { _ in Hunt16ViewModel() }
        app.registerAsync(Hunt16Screen.self) { r in
            entered.signal()
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await r.resolve(Hunt16ViewModel.self)
            return Hunt16Screen()
        }
        app.registerAsync(Hunt16Service.self) { r in
            warmUp.set(Task { try await r.resolve(Hunt16Screen.self) })
            await entered.wait()
            return Hunt16Service()
        }
        let resolving = Task { @MainActor in try await app.async.resolve(Hunt16Service.self) }
        let returned = await finishes(resolving, within: 5)
        #expect(returned)
        _ = try await warmUp.get()?.value
    }
}
