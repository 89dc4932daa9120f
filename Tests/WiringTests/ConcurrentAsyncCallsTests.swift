import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers

// Where async and synchronous resolves, claims, hooks, `Lazy` and captured containers meet under
// concurrency: five problems a hunt for hangs found (three hangs or wrong errors, two singletons
// made twice), each fixed, each test failing before its fix. Every wait is bounded, and every
// case runs in a child process of its own (`ConcurrentAsyncCallsTests` at the end): a regression
// can leave threads blocked for good, and the cases block threads on purpose, which starves the
// cooperative pool of a parallel suite on a small machine.

private final class HHA: @unchecked Sendable { var b: AnyObject? }
private final class HHB: @unchecked Sendable { var a: AnyObject? }
private final class HHP: @unchecked Sendable { var other: AnyObject? }
private final class HHX: @unchecked Sendable { var parts: [AnyObject] = [] }
private final class HHQ: @unchecked Sendable {}
private final class HHR: @unchecked Sendable {}
private final class HHS: @unchecked Sendable {}

/// What an experiment saw, under a lock.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

/// A container whose `.container` `HHP` counts how often its factory runs, at `speed`.
private func countedSingleton(_ speed: FactorySpeed) -> (Container, LockedCounter) {
    let container = Container()
    let made = LockedCounter()
    container.register(HHP.self) { _ in
        made.increment()
        speed.work()
        return HHP()
    }.scope(.container)
    return (container, made)
}

private func name(_ error: any Error) -> String {
    (error as? ResolutionError)?.identifier ?? "\(error)"
}

/// Starts a thread running `body`; returns a semaphore signalled when it is done.
private func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return done
}

/// Awaits `body` for at most `seconds`; false when it did not finish (a hang).
private func finishes(within seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let once = LockedOnce()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        Task.detached {
            await body()
            if once.claim() { continuation.resume(returning: true) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if once.claim() { continuation.resume(returning: false) }
        }
    }
}

private final class LockedOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    func claim() -> Bool { lock.withLock { defer { claimed = true }; return !claimed } }
}

// MARK: HH1. An async resolve that backs off reports a circular dependency

/// Fixed (wrong error). A has a hook resolving B; B's factory resolves A: no cycle (asked
/// for alone, either first, both resolve). A task asks for B with `await` (B's factory is plain,
/// so its step runs synchronously on the task's thread, and is slow); then a thread asks for A:
/// A's hook waits for B, B's factory waits for A, and B's caller closes the wait cycle and backs
/// off. A synchronous caller of B starts again and succeeds (same test with `container.resolve`
/// on a thread: both succeed); the async one throws `circular-dependency` (every round):
/// `Resolution.resolveAsync` runs the step in `ResolutionThread.withAsyncResolution`, which has
/// no `runAgain`, so the back-off error escapes.
@Suite(.enabled(if: ChildProcess.requestedCase == "async-back-off"))
struct HH1AsyncBackOff {
    @Test func anAsyncCallerThatBacksOffStartsAgainAsASynchronousOneDoes() async throws {
        for round in 1...3 {
            let container = Container()
            let bRuns = LockedCounter()
            let hookStarted = DispatchSemaphore(value: 0)
            let bStarted = DispatchSemaphore(value: 0)
            container.register(HHA.self) { _ in HHA() }.scope(.container).initCompleted { r, a in
                hookStarted.signal()
                a.b = try r.resolve(HHB.self)
            }
            container.register(HHB.self) { r in
                bRuns.increment()
                if bRuns.value == 1 {
                    bStarted.signal()
                    _ = hookStarted.wait(timeout: .now() + 2)
                    usleep(100_000)
                }
                let b = HHB()
                b.a = try r.resolve(HHA.self)
                return b
            }.scope(.container)
            let seen = Seen()
            let bDone = DispatchSemaphore(value: 0)
            Task.detached {
                do { _ = try await container.async.resolve(HHB.self); seen.add("B ok") } catch { seen.add("B \(name(error))") }
                bDone.signal()
            }
            #expect(bStarted.wait(timeout: .now() + 5) == .success)
            let aDone = onThread {
                do { _ = try container.resolve(HHA.self); seen.add("A ok") } catch { seen.add("A \(name(error))") }
            }
            let finished = aDone.wait(timeout: .now() + 10) == .success && bDone.wait(timeout: .now() + 10) == .success
            #expect(finished, "round \(round): hung")
            // Before the fix: ["A ok", "B circular-dependency"].
            #expect(Set(seen.all) == ["A ok", "B ok"], "round \(round): \(seen.all)")
        }
    }
}

// Fix (HH1): an async call that backs off waits for the instance and starts again
// (`Resolution.runAsync`), as a synchronous one does.

// MARK: HH2. Concurrent captured-container calls inside one async factory make a singleton twice

/// Fixed (double-made singleton). An async factory that resolves one `.container` singleton
/// twice at once through the container it captured (`async let`, or a task group): both calls
/// read `AsyncResolver.runningFactory` (a task local, inherited by child tasks) and claim as the
/// factory's resolution (`owner`), so the second finds the claim "already mine" and runs the
/// factory again. P's factory (5 ms) runs twice in every round; in the task-group form two
/// distinct instances were handed out in 2 of 20 rounds over four runs (publishing checks for an instance,
/// then stores its own, unclaimed). Through the factory's own resolver `r` (`async let a = r.resolve()`)
/// the second call gets an owner of its own, and P is made once.
@Suite(.serialized, .enabled(if: ChildProcess.requestedCase == "captured-calls-of-one-factory"))
struct HH2SameOwner {
    @Test(arguments: FactorySpeed.allCases)
    func aSingletonIsMadeOnceForTwoConcurrentCallsFromOneFactory(speed: FactorySpeed) async throws {
        for round in 1...speed.rounds {
            let (container, made) = countedSingleton(speed)
            container.registerAsync(HHX.self) { _ in
                async let first = container.async.resolve(HHP.self)
                async let second = container.async.resolve(HHP.self)
                let x = HHX()
                x.parts = try await [first, second]
                return x
            }
            let x = try await container.async.resolve(HHX.self)
            // Before the fix: 2.
            #expect(made.value == 1, "round \(round): P's factory ran \(made.value) times")
            #expect(ObjectIdentifier(x.parts[0]) == ObjectIdentifier(x.parts[1]), "round \(round): two instances")
        }
    }

    @Test(arguments: FactorySpeed.allCases)
    func aSingletonIsMadeOnceForATaskGroupInAFactory(speed: FactorySpeed) async throws {
        for round in 1...speed.rounds {
            let (container, made) = countedSingleton(speed)
            container.registerAsync(HHX.self) { _ in
                let x = HHX()
                x.parts = try await withThrowingTaskGroup(of: HHP.self) { group in
                    for _ in 0..<4 { group.addTask { try await container.async.resolve(HHP.self) } }
                    var all: [HHP] = []
                    for try await p in group { all.append(p) }
                    return all
                }
                return x
            }
            let x = try await container.async.resolve(HHX.self)
            // Before the fix: 2 (or more).
            #expect(made.value == 1, "round \(round): P's factory ran \(made.value) times")
            #expect(Set(x.parts.map(ObjectIdentifier.init)).count == 1, "round \(round): several instances")
        }
    }
}

// Fix (HH2): a call made from inside an async factory through a captured container claims
// as a resolution of its own, as a concurrent call of the factory's resolver does.

// MARK: HH3. A task started in an async factory keeps the factory's path and owner for good

/// Fixed (wrong error). `Task { }` inherits task locals, so a task an async factory starts
/// carries `AsyncResolver.runningFactory` (the factory's path and owner) after the factory has
/// returned: a later `container.async.resolve` in that task starts below the dead path. A
/// transient async service whose factory starts a task that, 50 ms later, asks for another one
/// (a session renewing itself) gets `circular-dependency: HHX -> HHX` every time.
@Suite(.serialized, .enabled(if: ChildProcess.requestedCase == "task-outliving-its-factory"))
struct HH3InheritedPath {
    @Test func aTaskStartedInAFactoryResolvesTheSameServiceLater() async throws {
        let container = Container()
        let made = LockedCounter()
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        container.registerAsync(HHX.self) { _ in
            made.increment()
            if made.value == 1 {
                Task {
                    try? await Task.sleep(nanoseconds: 50_000_000)
                    do { _ = try await container.async.resolve(HHX.self); seen.add("ok") } catch { seen.add(name(error)) }
                    done.signal()
                }
            }
            return HHX()
        }
        _ = try await container.async.resolve(HHX.self)
        let finished = await Task.detached { done.wait(timeout: .now() + 10) == .success }.value
        #expect(finished)
        // Before the fix: ["circular-dependency"].
        #expect(seen.all == ["ok"], "\(seen.all)")
    }

    /// Fixed (double-made singleton), same cause: the inherited owner is the identifier of
    /// a resolution that has ended and been freed; a new resolution allocated at the same address
    /// claims as the same owner, finds the task's claim "already mine", and runs the factory
    /// again. P (`.container`, 100 ms) is made twice in about half the rounds (9, 11, 19 of 20
    /// in three runs).
    @Test func aTaskOutlivingItsFactoryClaimsAsItsEndedResolution() async throws {
        var doubles = 0
        for _ in 1...20 {
            let container = Container()
            let made = LockedCounter()
            let done = DispatchSemaphore(value: 0)
            container.register(HHP.self) { _ in
                made.increment()
                usleep(100_000)
                return HHP()
            }.scope(.container)
            container.registerAsync(HHX.self) { _ in
                Task {
                    try? await Task.sleep(nanoseconds: 20_000_000)
                    _ = try? await container.async.resolve(HHP.self)
                    done.signal()
                }
                return HHX()
            }
            container.registerAsync(HHS.self) { r in
                _ = try await r.resolve(HHP.self)
                return HHS()
            }
            _ = try await container.async.resolve(HHX.self)
            try await Task.sleep(nanoseconds: 40_000_000)
            _ = try await container.async.resolve(HHS.self)
            _ = await Task.detached { done.wait(timeout: .now() + 5) }.value
            if made.value > 1 { doubles += 1 }
        }
        #expect(doubles == 0, "P made twice in \(doubles) of 20 rounds")
    }
}

// Fix (HH3): the factory's path is emptied when it returns; no owner is inherited at all.

// MARK: HH4. Lazy's gate and a claim wait for each other

private final class LazyBox: @unchecked Sendable {
    var lazy: Lazy<HHB>?
}

/// Fixed (hang). P (`.container`) has a hook reading a shared `Lazy<B>`; B's factory resolves
/// P. On one thread this works in either order (the hook meets P still in its hooks). Thread 1
/// reads the lazy (B's factory is slow); thread 2 asks for P. Thread 2 holds the hook gate and
/// P's claim, and its hook waits in `Lazy.value` for thread 1; thread 1's B waits for the hook
/// gate (`Creations.wait` in `takeHookGate`) held by thread 2. `Lazy`'s gate is not a claim, so
/// `Creations` never sees the wait cycle: both threads block for good (every run).
@Suite(.enabled(if: ChildProcess.requestedCase == "lazy-read-beside-a-hook"))
struct HH4LazyGateChild {
    @Test func aLazyReadAndASingletonWhoseHookReadsItTogether() throws {
        let container = Container()
        let box = LazyBox()
        let bStarted = DispatchSemaphore(value: 0)
        container.register(HHP.self) { _ in HHP() }.scope(.container).initCompleted { _, p in
            p.other = try box.lazy!.value
        }
        container.register(HHB.self) { r in
            bStarted.signal()
            usleep(150_000)
            let b = HHB()
            b.a = try r.resolve(HHP.self)
            return b
        }
        box.lazy = try container.resolve(Lazy<HHB>.self)
        let seen = Seen()
        let first = onThread {
            do { _ = try box.lazy!.value; seen.add("lazy ok") } catch { seen.add("lazy \(name(error))") }
        }
        #expect(bStarted.wait(timeout: .now() + 5) == .success)
        let second = onThread {
            do { _ = try container.resolve(HHP.self); seen.add("P ok") } catch { seen.add("P \(name(error))") }
        }
        let finished = first.wait(timeout: .now() + 10) == .success && second.wait(timeout: .now() + 10) == .success
        // Before the fix: both threads blocked (the first in `takeHookGate`, the second in `Lazy.value`).
        try #require(finished, "hung; seen \(seen.all)")
        #expect(Set(seen.all) == ["lazy ok", "P ok"], "\(seen.all)")
    }
}

// Fix (HH4): a `Lazy` read from inside a running resolution never waits for another thread
// resolving it: it resolves too, and the first result published is every reader's.

// MARK: HH5. Two waits of one owner hide a wait cycle

/// Fixed (hang). X's async factory resolves Q and R at once through its captured container:
/// both calls claim as X's resolution (see HH2), and `Creations` notes one wait per owner
/// (`waiting[owner]`). Thread T makes S (slow, 300 ms; S's hook resolves Q); thread T2 makes R
/// (150 ms). The call for Q claims Q, and Q's factory waits for S (the hook gate T holds); the
/// call for R waits for T2, and when T2 publishes R that wait ends and clears `waiting[owner]`,
/// the Q call's wait with it. T's hook then asks for Q: the chain Q -> owner -> (nothing) shows
/// no cycle, so T blocks on Q while Q's maker blocks on T, for good (every run), a cooperative
/// thread among them. With the factory's own resolver (`async let q = r.resolve(...)`) the
/// two calls get owners of their own, T backs off and all three succeed.
@Suite(.enabled(if: ChildProcess.requestedCase == "two-captured-calls-waiting"))
struct HH5OneOwnerWaitsTwiceChild {
    @Test func aWaitCycleThroughOneOfTwoConcurrentCallsIsSeen() async throws {
        let container = Container()
        let sHeld = DispatchSemaphore(value: 0)
        let rHeld = DispatchSemaphore(value: 0)
        container.register(HHS.self) { _ in
            sHeld.signal()
            usleep(300_000)
            return HHS()
        }.scope(.container).initCompleted { r, _ in
            _ = try r.resolve(HHQ.self)
        }
        container.register(HHQ.self) { r in
            _ = try r.resolve(HHS.self)
            return HHQ()
        }.scope(.container)
        container.register(HHR.self) { _ in
            rHeld.signal()
            usleep(150_000)
            return HHR()
        }.scope(.container)
        container.registerAsync(HHX.self) { _ in
            async let q = container.async.resolve(HHQ.self)
            async let r = container.async.resolve(HHR.self)
            let x = HHX()
            x.parts = try await [q, r]
            return x
        }
        let seen = Seen()
        let t = onThread {
            do { _ = try container.resolve(HHS.self); seen.add("S ok") } catch { seen.add("S \(name(error))") }
        }
        let t2 = onThread {
            do { _ = try container.resolve(HHR.self); seen.add("R ok") } catch { seen.add("R \(name(error))") }
        }
        _ = sHeld.wait(timeout: .now() + 5)
        _ = rHeld.wait(timeout: .now() + 5)
        let finished = await finishes(within: 10) {
            do { _ = try await container.async.resolve(HHX.self); seen.add("X ok") } catch { seen.add("X \(name(error))") }
        }
        // Before the fix: not finished; seen == ["R ok"]; T blocked in `Creations.wait` (S's hook asking
        // for Q), a cooperative thread blocked in `Creations.wait` (Q's factory asking for S).
        try #require(finished, "hung: \(seen.all)")
        let threadsDone = t.wait(timeout: .now() + 1) == .success && t2.wait(timeout: .now() + 1) == .success
        #expect(threadsDone, "threads hung: \(seen.all)")
        #expect(Set(seen.all) == ["S ok", "R ok", "X ok"], "\(seen.all)")
    }
}

// Fix (HH5): the two calls claim as resolutions of their own (HH2's fix), so each wait is
// noted and the cycle seen.

/// Each case above in a child process of its own (see the top of the file).
@Suite("Concurrent async calls: hangs and wrong answers", .serialized, .enabled(if: ChildProcess.isSupported))
struct ConcurrentAsyncCallsTests {
    /// Runs `suite` in a child process started for `name`, and checks that every test it has passed.
    private func expectPasses(_ name: String, suite: String, tests: [String]) throws {
        let outcome = try ChildProcess.run(
            name, arguments: ["--testing-library", "swift-testing", "--filter", suite], timeout: 60)
        #expect(outcome.succeeded, "\(outcome)")
        for test in tests {
            let passed = outcome.output.split(separator: "\n").contains { $0.contains("Test \(test) ") && $0.contains(" passed after ") }
            #expect(passed, "\(test) did not pass: \(outcome)")
        }
    }

    @Test func anAsyncCallThatBacksOffStartsAgain() throws {
        try expectPasses(
            "async-back-off", suite: "HH1AsyncBackOff", tests: ["anAsyncCallerThatBacksOffStartsAgainAsASynchronousOneDoes()"])
    }

    @Test func concurrentCapturedCallsOfOneAsyncFactoryMakeASingletonOnce() throws {
        try expectPasses(
            "captured-calls-of-one-factory", suite: "HH2SameOwner",
            tests: ["aSingletonIsMadeOnceForTwoConcurrentCallsFromOneFactory(speed:)", "aSingletonIsMadeOnceForATaskGroupInAFactory(speed:)"])
    }

    @Test func aTaskOutlivingItsAsyncFactoryStartsAfresh() throws {
        try expectPasses(
            "task-outliving-its-factory", suite: "HH3InheritedPath",
            tests: ["aTaskStartedInAFactoryResolvesTheSameServiceLater()", "aTaskOutlivingItsFactoryClaimsAsItsEndedResolution()"])
    }

    @Test func aLazyReadBesideASingletonWhoseHookReadsItCompletes() throws {
        try expectPasses(
            "lazy-read-beside-a-hook", suite: "HH4LazyGateChild", tests: ["aLazyReadAndASingletonWhoseHookReadsItTogether()"])
    }

    @Test func aWaitCycleThroughOneOfTwoCapturedCallsIsSeen() throws {
        try expectPasses(
            "two-captured-calls-waiting", suite: "HH5OneOwnerWaitsTwiceChild", tests: ["aWaitCycleThroughOneOfTwoConcurrentCallsIsSeen()"])
    }
}
