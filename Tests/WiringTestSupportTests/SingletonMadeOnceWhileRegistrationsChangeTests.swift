import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// A `.container` singleton of a test container made twice when any registration changed while
// the resolve that made it still ran: found by a third hunt, in the first fix of the two problems
// in `TestContainerConcurrencyTests` (an instance published before what it was made with was noted).
// Each test failed in every run before the fix: a layer's store now notes what an instance was made
// with as it publishes it. Every wait is bounded; each case blocks only the threads it starts.

private final class H3Dep: @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}
private final class H3Repo: @unchecked Sendable {
    let dep: H3Dep
    init(dep: H3Dep) { self.dep = dep }
}
private final class H3Other: @unchecked Sendable {}

private final class H3Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: Int] = [:]
    func add(_ item: String) { lock.withLock { items[item, default: 0] += 1 } }
    var all: [String: Int] { lock.withLock { items } }
}

// MARK: A `.container` singleton made once while unrelated registrations change

/// Fixed (it broke "`.container` singletons are made once").
///
/// Thread 1 resolves Outer (`.graph`), whose factory resolves Repo (`.container`, counted) and
/// then waits. Thread 2, meanwhile, changes something that has nothing to do with Repo (a
/// registration of another key into the base, `test.register` or `test.override` of another key)
/// and resolves Repo. Before the fix, Repo's factory ran a second time, the new Repo replaces the first in the
/// root layer, and thread 1's Outer keeps the first. `makes: 2, same: false` in every run (3 of 3,
/// each of the three changes); no hang, no error. One task is enough: an async resolve suspended
/// after making Repo (asleep on a test clock) leaves the window open while it sleeps (last test).
///
/// The cause: `LayerSnapshot.keptBox(for:)`, in the first fix of `TestContainerConcurrencyTests`: an instance whose
/// provenance is not noted yet (its resolution has not ended) is not there for a snapshot whose
/// `registry` is another object (`madeWith.dependencies == nil, madeWith.registry !== registry`
/// → `nil`). Any change to the base or to a layer's overrides makes a new merged registry, so the
/// second resolve finds no instance, claims (the first claim was given back at `keep`), makes a
/// second one and stores it in the same top layer (`store` → `layers[0].cache`), overwriting the
/// first. The fix notes what the instance was made with as it is published
/// (`InstanceProvenance.madeWith(openStepOf:snapshot:)`, from the recorder's open step), so that
/// staleness is decided by what changed, not by whether the registry is another object.

private final class H3Outer: @unchecked Sendable {
    let repo: H3Repo
    init(repo: H3Repo) { self.repo = repo }
}

/// Repo (`.container`) counted; Outer resolves Repo, signals `repoMade`, waits for `gate`.
private func h3GatedBase(repoMakes: LockedCounter, repoMade: DispatchSemaphore, gate: DispatchSemaphore) -> Container {
    let base = Container()
    base.register(H3Dep.self) { _ in H3Dep("live") }.scope(.container)
    base.register(H3Repo.self) { r in
        repoMakes.increment()
        return try H3Repo(dep: r.resolve(H3Dep.self))
    }.scope(.container)
    base.register(H3Other.self) { _ in H3Other() }
    base.register(H3Outer.self) { r in
        let repo = try r.resolve(H3Repo.self)
        repoMade.signal()
        _ = gate.wait(timeout: .now() + 5)
        return H3Outer(repo: repo)
    }
    return base
}

@Suite struct HH3SingletonMadeTwice {
    private func race(change: @escaping @Sendable (Container, TestContainer) -> Void) async -> (makes: Int, same: Bool, seen: [String: Int]) {
        let (gate, repoMade) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let makes = LockedCounter()
        let base = h3GatedBase(repoMakes: makes, repoMade: repoMade, gate: gate)
        let test = TestContainer(base: base)
        let seen = H3Seen()
        let repos = IdentityCollector()
        let finished = await raceThreadsAsync(2, timeout: .seconds(20)) { thread in
            if thread == 0 {
                do { repos.insert(try test.resolve(H3Outer.self).repo) } catch { seen.add("outer \(error)") }
                return
            }
            _ = repoMade.wait(timeout: .now() + 5)
            change(base, test)
            do { repos.insert(try test.resolve(H3Repo.self)) } catch { seen.add("repo \(error)") }
            gate.signal()
        }
        if !finished { seen.add("hung") }
        do { repos.insert(try test.resolve(H3Repo.self)) } catch { seen.add("after \(error)") }
        return (makes.value, repos.distinctCount == 1, seen.all)
    }

    @Test func aRegistrationIntoTheBase() async {
        let outcome = await race { base, _ in base.register(H3Other.self, name: "late") { _ in H3Other() } }
        #expect(outcome.seen.isEmpty, "\(outcome.seen)")
        #expect(outcome.makes == 1 && outcome.same, "\(outcome)")
    }

    @Test func anUnrelatedOverrideInTheSameLayer() async {
        let outcome = await race { _, test in test.override(H3Other.self) { _ in H3Other() } }
        #expect(outcome.seen.isEmpty, "\(outcome.seen)")
        #expect(outcome.makes == 1 && outcome.same, "\(outcome)")
    }

    @Test func anUnrelatedRegistrationInTheTestContainer() async {
        let outcome = await race { _, test in test.register(H3Other.self, name: "test-only") { _ in H3Other() } }
        #expect(outcome.seen.isEmpty, "\(outcome.seen)")
        #expect(outcome.makes == 1 && outcome.same, "\(outcome)")
    }

    /// No second thread needed: a task whose async factory made Repo and is suspended (asleep on
    /// a test clock) leaves the same window open for as long as it sleeps.
    @Test func whileAnAsyncResolveThatMadeItIsSuspended() async throws {
        let makes = LockedCounter()
        let base = Container()
        base.register(H3Dep.self) { _ in H3Dep("live") }.scope(.container)
        base.register(H3Repo.self) { r in
            makes.increment()
            return try H3Repo(dep: r.resolve(H3Dep.self))
        }.scope(.container)
        base.register(H3Other.self) { _ in H3Other() }
        base.register((any Clock<Duration>).self) { _ in ContinuousClock() }
        base.registerAsync(H3Outer.self) { r in
            let repo = try await r.resolve(H3Repo.self)
            try await r.resolve((any Clock<Duration>).self).sleep(for: .seconds(1))
            return H3Outer(repo: repo)
        }
        let test = TestContainer(base: base)
        let clock = test.installTestClock()
        let outer = Task { try await test.async.resolve(H3Outer.self) }
        await clock.waitForSleepers(1)
        test.override(H3Other.self) { _ in H3Other() }
        let repo = try test.resolve(H3Repo.self)
        await clock.advance(by: .seconds(1))
        let made = try await outer.value
        // Seen: makes 2, and Outer's Repo is not the one the test resolved.
        #expect(makes.value == 1)
        #expect(made.repo === repo)
    }
}
