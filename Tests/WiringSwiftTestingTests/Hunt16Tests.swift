import Foundation
import Testing
import Wiring
import WiringTestHelpers

// Hunt 16: aimed at f5805d6 (and ab55857): an async factory's calls take turns in its resolution
// through `RunningFactory`, and `Resolution.makeAwaited` waits, once the factory returned, until
// no call holds the turn (`RunningFactory.returned()`, a `Task.yield` loop).

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

@Suite struct Hunt16Tests {
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
}
