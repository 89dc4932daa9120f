import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Problems a test container had while other threads resolve through it, found by hunts for hangs
// and races: two handed out a wrong instance, one failed an innocent test (no hang, no crash). All
// are fixed; each test here failed in every run before its fix. Each case blocks only threads it
// starts (`raceThreadsAsync`), and every wait is bounded.
//
// The engine held up under the same hunt: providers and lazies from many threads, inside
// factories and hooks of kept singletons and past their container; `.weak` singletons released
// while others make and read them; `resetScope` (all, and `only:`) racing makes of hooked
// singletons; `removeAll()`, registering and `.scope(_:)` changes racing resolves from the
// container and its children; modules applied concurrently; deep and wide hooked graphs; back-offs
// under `.weak` churn and resets; `Injectable` and runtime-argument singletons from 8 threads.

private final class HT2Dep: @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class HT2Repo: @unchecked Sendable {
    let dep: HT2Dep
    init(dep: HT2Dep) { self.dep = dep }
}

private final class HT2Outer: @unchecked Sendable {
    let repo: HT2Repo
    init(repo: HT2Repo) { self.repo = repo }
}

/// What the threads of a case saw, counted, under a lock.
private final class HT2Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: Int] = [:]
    func add(_ item: String) { lock.withLock { items[item, default: 0] += 1 } }
    var all: [String: Int] { lock.withLock { items } }
}

private func ht2Name(_ error: any Error) -> String {
    (error as? ResolutionError)?.identifier ?? "\(error)"
}

/// Dep and Repo(Dep), singletons; Outer (`.graph`) resolves Repo, signals `repoMade`, then waits
/// for `gate` (at most 5 s) before it returns: a resolve still running after it made Repo.
private func ht2Base(repoMade: DispatchSemaphore? = nil, gate: DispatchSemaphore? = nil) -> Container {
    let base = Container()
    base.register(HT2Dep.self) { _ in HT2Dep("live") }.scope(.container)
    base.register(HT2Repo.self) { r in try HT2Repo(dep: r.resolve(HT2Dep.self)) }.scope(.container)
    base.register(HT2Outer.self) { r in
        let repo = try r.resolve(HT2Repo.self)
        repoMade?.signal()
        _ = gate?.wait(timeout: .now() + 5)
        return HT2Outer(repo: repo)
    }
    return base
}

// MARK: HT2-1. A singleton is handed out unchecked until the resolve that made it ends

/// Fixed: a layer's store now notes what an instance was made with as it publishes it, under the
/// same lock (the recorder of the step that made it knows every key resolved below it), so an
/// override reaches the instance from the moment any other resolution can find it. (A first fix,
/// hiding the instance from snapshots with another registry until its resolve ended, made a
/// singleton twice: `SingletonMadeOnceWhileRegistrationsChangeTests`.)
///
/// Before the fix: wrong instance; broke "an override reaches cached instances" and, with
/// `withOverrides`, the isolation of parallel tests sharing a test container. A kept instance of a test container is
/// checked against the overrides at each lookup (`LayerSnapshot.keptBox` → `staleness`) using
/// what it was made with, a note `InstanceProvenance.record` writes beside it; but that note is
/// written only when the *top-level* resolve that made it ends (`TraceStore.finished`), while
/// the instance is published to the layer's store at its own step (`Resolution.keep` →
/// `LayerSnapshot.store`). In between, a kept instance without a note counts as never stale
/// (`keptBox`: `madeWith.flatMap` gives no staleness), so any lookup, from any layer, gets it.
///
/// Thread 1 resolves Outer, which made Repo (with the live Dep) and is still running. Thread 2
/// then overrides Dep (in a `withOverrides` layer, a pushed layer, or the same layer) and asks
/// for Repo: it gets thread 1's Repo, made with the live Dep, every run (3 of 3). Once thread 1
/// has returned, the same request gets a Repo made with the fake (the suites in
/// `OverridesReachCachedInstancesTests` pass).
@Suite struct HT2ProvenanceWindow {
    /// Runs thread 1 (resolves Outer) and thread 2 (`afterRepoMade`, once Outer made Repo, then
    /// lets Outer return); what both saw.
    private func race(_ test: TestContainer, gate: DispatchSemaphore, repoMade: DispatchSemaphore,
                      afterRepoMade: @escaping @Sendable (HT2Seen) -> Void) async -> [String: Int] {
        let seen = HT2Seen()
        let finished = await raceThreadsAsync(2, timeout: .seconds(20)) { thread in
            if thread == 0 {
                do { _ = try test.resolve(HT2Outer.self); seen.add("outer ok") } catch { seen.add("outer \(ht2Name(error))") }
                return
            }
            _ = repoMade.wait(timeout: .now() + 5)
            afterRepoMade(seen)
            gate.signal()
        }
        #expect(finished, "hung: \(seen.all)")
        return seen.all
    }

    @Test func aWithOverridesLayerGetsASingletonMadeWithoutItsOverride() async {
        let (gate, repoMade) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let test = TestContainer(base: ht2Base(repoMade: repoMade, gate: gate))
        let seen = await race(test, gate: gate, repoMade: repoMade) { seen in
            do {
                try test.withOverrides({ $0.override(HT2Dep.self) { _ in HT2Dep("fake") } }) {
                    seen.add("inside: " + (try test.resolve(HT2Repo.self).dep.label))
                }
            } catch { seen.add("inside \(ht2Name(error))") }
        }
        // Seen: ["outer ok": 1, "inside: live": 1].
        #expect(seen == ["outer ok": 1, "inside: fake": 1], "\(seen)")
    }

    @Test func aPushedLayerGetsASingletonMadeWithoutItsOverride() async {
        let (gate, repoMade) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let test = TestContainer(base: ht2Base(repoMade: repoMade, gate: gate))
        let seen = await race(test, gate: gate, repoMade: repoMade) { seen in
            test.pushLayer("offline")
            test.override(HT2Dep.self) { _ in HT2Dep("fake") }
            do { seen.add("inside: " + (try test.resolve(HT2Repo.self).dep.label)) } catch { seen.add("inside \(ht2Name(error))") }
            test.popLayer()
        }
        // Seen: ["outer ok": 1, "inside: live": 1].
        #expect(seen == ["outer ok": 1, "inside: fake": 1], "\(seen)")
    }

    @Test func anOverrideInTheSameLayerDoesNotReachASingletonMadeJustBefore() async {
        let (gate, repoMade) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let test = TestContainer(base: ht2Base(repoMade: repoMade, gate: gate))
        let seen = await race(test, gate: gate, repoMade: repoMade) { seen in
            test.override(HT2Dep.self) { _ in HT2Dep("fake") }
            do { seen.add("after: " + (try test.resolve(HT2Repo.self).dep.label)) } catch { seen.add("after \(ht2Name(error))") }
        }
        // Seen: ["outer ok": 1, "after: live": 1].
        #expect(seen == ["outer ok": 1, "after: fake": 1], "\(seen)")
    }

    /// The same as parallel tests meet it: seven "tests" each override Dep in `withOverrides`
    /// and resolve Repo, 300 times, beside one that resets and resolves Repo without overrides.
    /// Some of the 2,100 calls get the other test's Repo (live Dep) in every run (9 of 9: from 1
    /// to 305 of them). With the eighth thread only resetting (not resolving), none do (2 of 2).
    @Test func parallelTestsWithOverridesGetAnotherTestsSingleton() async {
        let test = TestContainer(base: ht2Base())
        let wrong = HT2Seen()
        let finished = await raceThreadsAsync(8, timeout: .seconds(60)) { thread in
            for round in 0..<300 {
                if thread == 0 {
                    test.resetScope(.container)
                    _ = try? test.resolve(HT2Repo.self)
                    continue
                }
                let label = "t\(thread)-\(round)"
                do {
                    try test.withOverrides({ $0.override(HT2Dep.self) { _ in HT2Dep(label) } }) {
                        let repo = try test.resolve(HT2Repo.self)
                        if repo.dep.label != label { wrong.add("\(repo.dep.label) for t\(thread)") }
                    }
                } catch { wrong.add(ht2Name(error)) }
            }
        }
        #expect(finished)
        #expect(wrong.all.isEmpty, "\(wrong.all)")
    }
}

// MARK: HT2-2. An `Injectable` singleton is kept in the layers as they are now, not as the call saw them

/// An unregistered singleton type: the engine's implicit registration, kept by the test container.
private final class HT2Service: Injectable, @unchecked Sendable {
    static var scope: Scope { .container }
    let dep: HT2Dep
    init(resolver: any Resolver) throws { dep = try resolver.resolve(HT2Dep.self) }
}

private final class HT2Screen: @unchecked Sendable {
    let service: HT2Service
    init(service: HT2Service) { self.service = service }
}

/// Dep (a singleton); Screen signals `started`, waits for `gate`, then resolves the `Injectable`.
private func ht2InjectableBase(started: DispatchSemaphore, gate: DispatchSemaphore) -> Container {
    let base = Container()
    base.register(HT2Dep.self) { _ in HT2Dep("live") }.scope(.container)
    base.register(HT2Screen.self) { r in
        started.signal()
        _ = gate.wait(timeout: .now() + 5)
        return HT2Screen(service: try r.resolve(HT2Service.self))
    }
    return base
}

/// Fixed: a source gives the store of unregistered types for the running call
/// (`implicitCache(for:)`); a test container's is the layers the call began with.
///
/// Before the fix: wrong instance; broke "a layer's instances go when it is popped, restoring the
/// state before the push" (and "one view per resolution"). A resolve through a test container looks up and
/// keeps registered instances in the layers it began with (its environment's `LayerSnapshot`);
/// an `Injectable` type's instance is looked up and kept in `source.implicitCache`
/// (`Resolution.implicitLookup`, `ResolutionStep.swift`), which for a test container is
/// `layers.snapshot()` (`TestContainer+ResolutionSource.swift`): the layers as they are at that
/// moment. When a layer is popped (or pushed) while a resolve runs, the `Injectable` is built
/// with the call's view (its dependencies from the old layers) but kept in the new top layer;
/// and its provenance note goes to the call's top layer (`InstanceProvenance.record`), so the
/// instance where it is kept has none and is never found stale.
///
/// Popped: the test pushes "offline" overriding Dep, a thread resolves Screen (begun inside
/// the layer), the test pops; Screen's `HT2Service` is made with the fake Dep and kept in the
/// root: after the pop the root hands out a Service with the fake Dep, for good (3 of 3).
/// Pushed: the mirror image; inside the new layer a Service made with the live Dep (3 of 3).
@Suite struct HT2InjectableKeptInCurrentLayers {
    private func race(
        _ test: TestContainer, started: DispatchSemaphore, gate: DispatchSemaphore,
        whileScreenWaits: @escaping @Sendable () -> Void
    ) async -> [String: Int] {
        let seen = HT2Seen()
        let finished = await raceThreadsAsync(2, timeout: .seconds(20)) { thread in
            if thread == 0 {
                do { seen.add("screen: " + (try test.resolve(HT2Screen.self).service.dep.label)) } catch {
                    seen.add("screen \(ht2Name(error))")
                }
                return
            }
            _ = started.wait(timeout: .now() + 5)
            whileScreenWaits()
            gate.signal()
        }
        #expect(finished, "hung: \(seen.all)")
        return seen.all
    }

    @Test func aLayerPoppedWhileAResolveRunsLeavesItsInjectableInTheRoot() async {
        let (started, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let test = TestContainer(base: ht2InjectableBase(started: started, gate: gate))
        test.pushLayer("offline")
        test.override(HT2Dep.self) { _ in HT2Dep("fake") }
        let seen = await race(test, started: started, gate: gate) { test.popLayer() }
        #expect(seen == ["screen: fake": 1], "\(seen)")
        // Seen: "fake", a Service made inside the popped layer, kept in the root.
        let afterPop = try? test.resolve(HT2Service.self).dep.label
        #expect(afterPop == "live", "after the pop: \(String(describing: afterPop))")
    }

    @Test func aLayerPushedWhileAResolveRunsGetsAnInjectableMadeWithoutItsOverride() async {
        let (started, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let test = TestContainer(base: ht2InjectableBase(started: started, gate: gate))
        let seen = await race(test, started: started, gate: gate) {
            test.pushLayer("offline")
            test.override(HT2Dep.self) { _ in HT2Dep("fake") }
        }
        // The running resolve keeps its view: live, as documented.
        #expect(seen == ["screen: live": 1], "\(seen)")
        // Seen: "live", the running resolve's Service, kept in the new layer.
        let inside = try? test.resolve(HT2Service.self).dep.label
        #expect(inside == "fake", "inside the layer: \(String(describing: inside))")
        test.popLayer()
    }
}

// MARK: HH3-3. A leak check reports what another test's `withOverrides` layer keeps

private final class HH3Dep: @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

/// Made anew for each Repo and kept by no layer: only the Repo holds it.
private final class HH3Log: @unchecked Sendable {}

private final class HH3Repo: @unchecked Sendable {
    let dep: HH3Dep
    let log: HH3Log
    init(dep: HH3Dep, log: HH3Log) {
        self.dep = dep
        self.log = log
    }
}

/// Fixed: a resolution notes the `withOverrides` layers it ran inside beside what it made, and a
/// leak check leaves out what was made inside a layer another task has bound, looking under the
/// lock that binding and unbinding take; a layer lets go of its instances before it is unbound.
///
/// Before the fix: a false `leaked-instance` finding; broke "parallel tests sharing a test
/// container are isolated". `leakedInstances()` lets go of what the caller's layers, the pushed
/// ones and the root keep (`LayerStack.dropKeptInstances()`), not of what the layers other tasks
/// bound keep, which it must not; then it listed every object the test container made that is
/// alive (`MadeObjects`), whoever keeps it. Thread 0 (a test inside `withOverrides`, as the
/// `.override` trait on a shared test container is) resolves Repo; thread 1 (another test) checks
/// for leaks meanwhile and got thread 0's Repo, Dep and Log, every run.
@Suite struct HH3LeakCheckOfASharedTestContainer {
    /// Dep and Repo(Dep, Log), singletons; Log transient; each factory at `speed`.
    private func sharedTestContainer(_ speed: FactorySpeed) -> TestContainer {
        let base = Container()
        base.register(HH3Dep.self) { _ in
            speed.work()
            return HH3Dep("live")
        }.scope(.container)
        base.register(HH3Log.self) { _ in
            speed.work()
            return HH3Log()
        }
        base.register(HH3Repo.self) { r in
            speed.work()
            return try HH3Repo(dep: r.resolve(HH3Dep.self), log: r.resolve(HH3Log.self))
        }.scope(.container)
        let test = TestContainer(base: base)
        test.isTrackingLeaks = true                             // on by default in debug builds only
        return test
    }

    /// Runs `rounds` rounds of two tests sharing `test`: thread 0 enters a `withOverrides` scope
    /// (a fake Dep), resolves Repo there and stays inside while thread 1 runs `check`, then
    /// leaves. A round whose wait runs out ends both threads. What `check` found, by round.
    private func race(
        _ test: TestContainer, rounds: Int, check: @escaping @Sendable () -> [LeakedInstance]
    ) async -> [[String]] {
        let (inside, checked) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let found = Locked<[[String]]>([])
        let finished = await raceThreadsAsync(2, timeout: .seconds(60)) { thread in
            for _ in 0..<rounds {
                if thread == 0 {
                    let stayedInside = test.withOverrides({ $0.override(HH3Dep.self) { _ in HH3Dep("fake") } }) {
                        let repo = try? test.resolve(HH3Repo.self)
                        inside.signal()
                        return checked.wait(timeout: .now() + 5) == .success && repo?.dep.label == "fake"
                    }
                    if !stayedInside { return }
                } else {
                    guard inside.wait(timeout: .now() + 5) == .success else { return }
                    let leaked = check().map(\.description)
                    found.withLock { $0.append(leaked) }
                    checked.signal()
                }
            }
        }
        #expect(finished)
        let all = found.withLock { $0 }
        #expect(all.count == rounds, "rounds run: \(all.count) of \(rounds)")
        return all
    }

    /// A test checking a shared test container for leaks is not told of what another test's
    /// `withOverrides` layer keeps (its Repo and Dep), nor of what that test's resolutions made
    /// and only what the layer keeps holds (the Repo's Log): that test is still running.
    @Test(arguments: FactorySpeed.allCases)
    func aLeakCheckOfASharedTestContainerIgnoresWhatAnotherTestsLayerKeeps(speed: FactorySpeed) async {
        let test = sharedTestContainer(speed)
        let found = await race(test, rounds: speed.rounds) { test.leakedInstances() }
        // Seen: "HH3Dep #2 (a HH3Dep), made by HH3Repo -> HH3Dep, is still alive though the test
        // container let go of what it kept", and the same of HH3Log and HH3Repo, every round.
        let reported = found.filter { !$0.isEmpty }
        #expect(reported.count == 0, "of \(found.count) rounds; the first: \(reported.first ?? [])")
    }

    /// What the checking test leaked for real (its own Repo, with its Dep and Log, held in a
    /// variable past the check) is still reported while another test's layer is bound, and only
    /// that: not nothing, and not the other test's Repo beside it.
    @Test(arguments: FactorySpeed.allCases)
    func aLeakCheckOfASharedTestContainerStillReportsWhatTheCheckingTestHolds(speed: FactorySpeed) async {
        let test = sharedTestContainer(speed)
        let found = await race(test, rounds: speed.rounds) {
            let held = try? test.resolve(HH3Repo.self)
            return withExtendedLifetime(held) { test.leakedInstances() }
        }
        let wrong = found.filter { leaked in
            leaked.compactMap { $0.split(separator: " ").first.map(String.init) }.sorted() != ["HH3Dep", "HH3Log", "HH3Repo"]
        }
        #expect(wrong.count == 0, "of \(found.count) rounds; the first: \(wrong.first ?? [])")
    }
}

// MARK: A registration's options changed while threads resolve it

private final class OptionRaced: Sendable {}

/// Changing a registration's options drops the instance kept for it, in the app and in a test
/// container; a resolve that began before the change may still keep the old one beside it, but
/// never in place of the new one: the new options' instance is made once, whichever finishes
/// first.
@Suite struct OptionsChangedWhileResolving {
    @Test(.timeLimit(.minutes(4)), arguments: FactorySpeed.allCases)
    func theNewOptionsInstanceIsMadeOnce(speed: FactorySpeed) async {
        var failures: [String] = []
        for round in 0..<speed.rounds / 5 {
            let base = Container()
            let registration = base.register(OptionRaced.self) { _ in
                speed.work()
                return OptionRaced()
            }.scope(.container)
            let test = TestContainer(base: base)
            let hooked = LockedCounter()
            let after = Locked<[ObjectIdentifier]>([])
            let changed = Locked(false)
            let finished = await raceThreadsAsync(8, timeout: .seconds(30)) { thread in
                if thread == 0 {
                    registration.initCompleted { _, _ in hooked.increment() }
                    changed.withLock { $0 = true }
                    return
                }
                for _ in 0..<20 {
                    let wasChanged = changed.withLock { $0 }
                    guard let instance = try? test.resolve(OptionRaced.self) else { continue }
                    if wasChanged { after.withLock { $0.append(ObjectIdentifier(instance)) } }
                }
            }
            let last = try? test.resolve(OptionRaced.self)
            if !finished { failures.append("round \(round): the race did not finish") }
            if hooked.value != 1 { failures.append("round \(round): the hooked copy was made \(hooked.value) times") }
            if let last, !after.withLock({ $0 }).allSatisfy({ $0 == ObjectIdentifier(last) }) {
                failures.append("round \(round): resolves begun after the change gave more than one instance")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
