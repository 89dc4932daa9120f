import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// A layer that ends (popped, or its `withOverrides` returned) while resolutions or tasks still
// run through it: what they make, and where a late `override` goes, against the app's plain
// `Container` and the docs (found by a hunt aimed at the one store; each test says what it
// failed with before its fix, if it did). Every wait is bounded; blocking waits run on Dispatch
// threads.

private final class MidwayService: @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class MidwayInner: @unchecked Sendable {}

private final class MidwayOuter: @unchecked Sendable {
    let first: MidwayInner
    let second: MidwayInner
    init(_ first: MidwayInner, _ second: MidwayInner) {
        self.first = first
        self.second = second
    }
}

private final class MidwaySlow: @unchecked Sendable {}

/// Runs `body` on a Dispatch thread, returning its result (bounded by the caller's waits).
private func midwayOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}

private final class MidwayBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private final class MidwayCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Counts one more, returning the new count.
    func next() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}

private final class MidwayWeak: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: AnyObject?
    var object: AnyObject? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite("Layers ending midway", .serialized)
struct LayersEndingMidwayTests {
    /// A task started inside `withOverrides` that runs on after it returned and calls
    /// `test.override` overrides in the layer it is done with, which no resolve sees: the
    /// override reaches no other test sharing the container.
    ///
    /// Before the fix (both cases, every run): it went into the root layer, or with
    /// `anotherTestPushed`, into the layer another test had pushed, reaching every test.
    @Test(arguments: [false, true])
    func anOverrideFromATaskThatOutlivedItsWithOverridesStaysOutOfOtherTests(anotherTestPushed: Bool) async throws {
        let base = Container()
        base.register(MidwayService.self) { _ in MidwayService("real") }
        let test = TestContainer(base: base)
        let go = DispatchSemaphore(value: 0)
        var escaped: Task<Void, Never>?
        test.withOverrides({ _ in }) {
            escaped = Task {
                _ = await signalled(go)
                test.override(MidwayService.self) { _ in MidwayService("escaped task's double") }
            }
        }
        if anotherTestPushed { test.pushLayer("another test's") }
        go.signal()
        await escaped?.value
        // Another test (or this one, later) resolving without any layer of its own.
        let seen = try test.resolve(MidwayService.self)
        #expect(seen.label == "real", "a task done with its withOverrides overrode for everyone: \(seen.label)")
        if anotherTestPushed { test.popLayer() }
    }

    /// A resolve sees the layers as they were when it began (docs): a `.container` singleton it
    /// needs twice is made once, though its top layer is popped midway (`popLayer`, or the
    /// `withOverrides` that the `Task` it runs in was started in returns).
    @Test(arguments: ["popLayer", "withOverrides"])
    func aResolveBegunInALayerMakesItsSingletonOnceThoughTheLayerGoesMidway(_ how: String) async throws {
        let made = LockedCounter()
        let (midway, resume) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let base = Container()
        base.register(MidwayInner.self) { _ in
            made.increment()
            return MidwayInner()
        }.scope(.container)
        base.register(MidwayOuter.self) { r in
            let first = try r.resolve(MidwayInner.self)
            midway.signal()
            _ = resume.wait(timeout: .now() + 10)
            return MidwayOuter(first, try r.resolve(MidwayInner.self))
        }
        let test = TestContainer(base: base)
        let outer: MidwayOuter?
        if how == "popLayer" {
            test.pushLayer("x")
            let done = DispatchSemaphore(value: 0)
            let result = MidwayBox<MidwayOuter>()
            DispatchQueue.global().async {
                result.value = try? test.resolve(MidwayOuter.self)
                done.signal()
            }
            #expect(await signalled(midway))
            test.popLayer()
            resume.signal()
            #expect(await signalled(done))
            outer = result.value
        } else {
            var escaped: Task<MidwayOuter?, Never>?
            await test.withOverrides({ _ in }) {
                escaped = Task { try? test.resolve(MidwayOuter.self) }
                _ = await signalled(midway)
            }
            resume.signal()
            outer = await escaped?.value
        }
        let got = try #require(outer)
        #expect(got.first === got.second, "one resolve got two instances of a .container singleton (\(how))")
        #expect(made.value == 1, "made \(made.value) times (\(how))")
    }

    /// Two resolves begun while a pushed layer is on top, one making a slow `.container`
    /// singleton (holding the claim), the other waiting for it, the layer popped meanwhile: both
    /// get the maker's instance, made once.
    ///
    /// Before the fix (every run): the popped layer's shelf was closed at once, so the maker's
    /// instance was not kept, and the waiter made a second one. It now closes when the next
    /// layer ends.
    @Test func aWaiterForASingletonInALayerPoppedMidwayGetsTheMakersInstance() async throws {
        let made = MidwayCounter()
        let (making, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let base = Container()
        base.register(MidwaySlow.self) { _ in
            if made.next() == 1 {
                making.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            return MidwaySlow()
        }.scope(.container)
        let test = TestContainer(base: base)
        test.pushLayer("x")
        let (makerDone, waiterStarted, waiterDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let (fromMaker, fromWaiter) = (MidwayBox<MidwaySlow>(), MidwayBox<MidwaySlow>())
        DispatchQueue.global().async {
            fromMaker.value = try? test.resolve(MidwaySlow.self)
            makerDone.signal()
        }
        #expect(await signalled(making))
        DispatchQueue.global().async {
            waiterStarted.signal()
            fromWaiter.value = try? test.resolve(MidwaySlow.self)
            waiterDone.signal()
        }
        #expect(await signalled(waiterStarted))
        try await Task.sleep(for: .milliseconds(300))  // the waiter now waits on the maker's claim
        test.popLayer()
        release.signal()
        #expect(await signalled(makerDone))
        #expect(await signalled(waiterDone))
        let (maker, waiter) = (try #require(fromMaker.value), try #require(fromWaiter.value))
        #expect(maker === waiter, "two resolves begun in one layer got two .container instances")
        #expect(made.value == 1, "made \(made.value) times")
    }

    /// Nested `withOverrides`, a `Task` started in the inner one outliving only it: the task sees
    /// the outer layer (still bound), not the inner one, and its `override` goes into the outer
    /// layer, gone once the outer `withOverrides` returns. (Before the one store, the task still
    /// saw the inner layer.)
    @Test func aTaskOutlivingOnlyTheInnerWithOverridesSeesAndOverridesTheOuterLayer() async throws {
        let base = Container()
        base.register(MidwayService.self) { _ in MidwayService("real") }
        let test = TestContainer(base: base)
        let go = DispatchSemaphore(value: 0)
        var escaped: Task<(String?, String?), Never>?
        await test.withOverrides({ $0.override(MidwayService.self) { _ in MidwayService("outer") } }) {
            test.withOverrides({ $0.override(MidwayService.self) { _ in MidwayService("inner") } }) {
                escaped = Task {
                    _ = await signalled(go)
                    let seen = try? test.resolve(MidwayService.self)
                    test.override(MidwayService.self) { _ in MidwayService("late") }
                    return (seen?.label, (try? test.resolve(MidwayService.self))?.label)
                }
            }
            go.signal()
            let (seen, afterOverride) = await escaped?.value ?? (nil, nil)
            #expect(seen == "outer")
            #expect(afterOverride == "late")
            #expect((try? test.resolve(MidwayService.self))?.label == "late", "the late override went into the outer layer")
        }
        #expect(try test.resolve(MidwayService.self).label == "real")
    }

    /// The `withOverrides` form of the waiter race: two tasks started inside `withOverrides`, one
    /// making a slow (async, suspending) `.container` singleton, the other (an async resolve)
    /// waiting for its claim; `withOverrides` returns meanwhile: made once. (Before the fix, every
    /// run: the waiter made a second one.)
    @Test func aWaiterForASingletonInAWithOverridesThatReturnedMidwayGetsTheMakersInstance() async throws {
        let made = MidwayCounter()
        let (making, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let base = Container()
        base.registerAsync(MidwaySlow.self) { _ in
            if made.next() == 1 {
                making.signal()
                _ = await signalled(release)  // suspends, off the cooperative pool
            }
            return MidwaySlow()
        }.scope(.container)
        let test = TestContainer(base: base)
        var maker: Task<MidwaySlow?, Never>?
        var waiter: Task<MidwaySlow?, Never>?
        await test.withOverrides({ _ in }) {
            maker = Task { try? await test.async.resolve(MidwaySlow.self) }
            _ = await signalled(making)
            let waiterStarted = DispatchSemaphore(value: 0)
            waiter = Task {
                waiterStarted.signal()
                return try? await test.async.resolve(MidwaySlow.self)
            }
            _ = await signalled(waiterStarted)
            try? await Task.sleep(for: .milliseconds(300))  // the waiter now waits on the maker's claim
        }
        release.signal()
        let (fromMaker, fromWaiter) = (await maker?.value, await waiter?.value)
        let (first, second) = (try #require(fromMaker ?? nil), try #require(fromWaiter ?? nil))
        #expect(first === second, "two resolves begun in one withOverrides got two .container instances")
        #expect(made.value == 1, "made \(made.value) times")
    }
}
