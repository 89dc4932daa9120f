import Foundation
import Wiring
import WiringTestHelpers
import WiringTestSupport

/// The kept-instance shapes the stress test races; each counts the instances its factory made.
final class HookedPair: @unchecked Sendable {
    var partner: PartnerPair?
}

final class PartnerPair: @unchecked Sendable {
    var hooked: HookedPair?
}

final class Made: @unchecked Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

final class Holder {
    let made: Made
    init(made: Made) { self.made = made }
}

protocol Pet: AnyObject {}
final class Dog: Pet {}

extension Scope {
    static let stressSession = Scope("stress-session")
}

extension StressShape {
    /// Every shape, each with a fast and a slow factory.
    public static var all: [StressShape] {
        shapes.flatMap { shape in Speed.allCases.map { StressShape(name: shape.name, speed: $0, round: shape.round) } }
    }

    private static let threads = 8
    private static let resolvesPerThread = 200

    private typealias Round = @Sendable (Speed) async throws -> Excess

    private static var shapes: [(name: String, round: Round)] {
        [
            ("one container", oneContainer),
            ("parent and child", parentAndChild),
            ("a named singleton, by name and from a factory, parent and child", namedSingleton),
            ("two children of one parent", twoChildren),
            ("Lazy.value", lazyValue),
            ("Provider", provider),
            ("async tasks, async singleton with an async dependency", asyncTasks),
            ("custom scope after resetScope", customScopeAfterReset),
            (".weak while held", weakWhileHeld),
            (".weak while held, through a TestContainer", weakThroughTestContainer),
            ("recording TestContainer, 16 threads", recordingTestContainer),
            ("Swinject: parent and synchronized child", swinjectParentAndChild),
            ("one instance per distinct arguments, threads", perArgumentsThreads),
            ("one instance per distinct arguments, async tasks", perArgumentsTasks),
            ("override layers pushed and popped, a TestContainer per thread", layersPerThread),
            ("module replaced in a pushed layer, a TestContainer per thread", moduleReplacedPerThread),
            (".liveOnly() refused by TestContainers, run once by the base", liveOnlyUnderContention),
            ("hooks resolving each other through a captured container", hooksThroughCapturedContainer),
        ]
    }

    /// A `.container` registration whose factory counts what it makes.
    private static func registerCounted(in container: Container, _ tally: LockedCounter, _ speed: Speed, scope: Scope = .container) {
        container.register(Made.self) { _ in
            tally.increment()
            speed.work()
            return Made(serial: tally.value)
        }.scope(scope)
    }

    /// Races `body` on `threads` threads released together (see `raceThreadsAsync`).
    /// - Throws: ``Hung`` when they do not finish within the bound: a deadlock.
    private static func race(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) async throws {
        guard await raceThreadsAsync(threads, body) else { throw Hung(threads: threads) }
    }

    /// A round whose threads did not finish within `raceThreadsAsync`'s bound.
    struct Hung: Error, CustomStringConvertible {
        let threads: Int
        var description: String { "\(threads) racing threads did not finish in time: a deadlock" }
    }

    private static func excess(_ tally: LockedCounter, due: Int = 1, _ what: String) -> Excess {
        let made = tally.value
        return made > due ? Excess(extra: made - due, detail: "\(what): made \(made) times, due \(due)") : .none
    }

    private static let oneContainer: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed)
        try await race(threads) { _ in
            for _ in 0..<resolvesPerThread { _ = try! container.resolve(Made.self) }
        }
        return excess(tally, "a .container singleton")
    }

    /// A named `.container` singleton asked for by its name at the top level and from a factory,
    /// from a container and its child: a named resolve takes the unnamed one's way.
    private static let namedSingleton: Round = { speed in
        let tally = LockedCounter()
        let parent = Container()
        parent.register(Made.self, name: "named") { _ in
            tally.increment()
            speed.work()
            return Made(serial: tally.value)
        }.scope(.container)
        parent.register(String.self) { r in "\(try r.resolve(Made.self, name: "named").serial)" }
        let child = Container(parent: parent)
        try await race(threads) { index in
            let from = index.isMultiple(of: 2) ? parent : child
            for round in 0..<resolvesPerThread {
                if round.isMultiple(of: 2) { _ = try! from.resolve(Made.self, name: "named") } else { _ = try! from.resolve(String.self) }
            }
        }
        return excess(tally, "a named singleton")
    }

    private static let parentAndChild: Round = { speed in
        let tally = LockedCounter()
        let parent = Container()
        registerCounted(in: parent, tally, speed)
        let child = Container(parent: parent)
        try await race(threads) { index in
            let from = index.isMultiple(of: 2) ? parent : child
            for _ in 0..<resolvesPerThread { _ = try! from.resolve(Made.self) }
        }
        return excess(tally, "a parent's singleton, from the parent and a child")
    }

    private static let twoChildren: Round = { speed in
        let tally = LockedCounter()
        let parent = Container()
        registerCounted(in: parent, tally, speed)
        let children = [Container(parent: parent), Container(parent: parent)]
        try await race(threads) { index in
            for _ in 0..<resolvesPerThread { _ = try! children[index % 2].resolve(Made.self) }
        }
        return excess(tally, "a parent's singleton, from two children")
    }

    private static let lazyValue: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed)
        try await race(threads) { _ in
            for _ in 0..<resolvesPerThread { _ = try! container.resolve(Lazy<Made>.self).value }
        }
        return excess(tally, "a singleton through Lazy.value")
    }

    /// Two singletons whose hooks resolve each other through the container they captured, not
    /// their resolver, asked for from a child: a factory may run again (after a back-off, or
    /// inside the other's hook); what counts is how many of each the threads were handed.
    private static let hooksThroughCapturedContainer: Round = { speed in
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(HookedPair.self) { _ in HookedPair() }.scope(.container)
            .initCompleted { _, pair in
                speed.work()
                pair.partner = try parent.resolve(PartnerPair.self)
            }
        parent.register(PartnerPair.self) { _ in PartnerPair() }.scope(.container)
            .initCompleted { _, partner in
                speed.work()
                partner.hooked = try parent.resolve(HookedPair.self)
            }
        let hookeds = IdentityCollector()
        let partners = IdentityCollector()
        try await race(threads) { index in
            for _ in 0..<resolvesPerThread {
                if index.isMultiple(of: 2) {
                    hookeds.insert(try! child.resolve(HookedPair.self))
                } else {
                    partners.insert(try! child.resolve(PartnerPair.self))
                }
            }
        }
        let extra = max(0, hookeds.distinctCount - 1) + max(0, partners.distinctCount - 1)
        return extra == 0
            ? .none
            : Excess(
                extra: extra,
                detail: "handed out \(hookeds.distinctCount) of one singleton and \(partners.distinctCount) of the other")
    }

    private static let provider: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed)
        try await race(threads) { _ in
            let provider = try! container.resolve(Provider<Made>.self)
            for _ in 0..<resolvesPerThread { _ = try! provider() }
        }
        return excess(tally, "a singleton through a Provider")
    }

    private static let asyncTasks: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        container.registerAsync(Made.self) { _ in
            tally.increment()
            await speed.asyncWork()
            return Made(serial: tally.value)
        }.scope(.container)
        container.registerAsync(Holder.self) { r in
            tally.increment()
            await speed.asyncWork()
            return try await Holder(made: r.resolve(Made.self))
        }.scope(.container)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    // Arriving over 40 ms, as requests do.
                    try await Task.sleep(nanoseconds: UInt64(index % 8) * 5_000_000)
                    let holder = try await container.async.resolve(Holder.self)
                    let made = try await container.async.resolve(Made.self)
                    precondition(holder.made === made, "an async singleton's dependency is the singleton")
                }
            }
            try await group.waitForAll()
        }
        return excess(tally, due: 2, "an async singleton and its async singleton dependency")
    }

    /// How many distinct argument values the per-arguments shapes ask with.
    private static let distinctArguments = 4

    private static let perArgumentsThreads: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        container.register(Made.self) { (_, user: String) in
            tally.increment()
            speed.work()
            return Made(serial: tally.value)
        }.scope(.container)
        try await race(threads) { index in
            for round in 0..<resolvesPerThread {
                _ = try! container.resolve(Made.self, arguments: "u\((index + round) % distinctArguments)")
            }
        }
        return excess(tally, due: distinctArguments, "a .container registration with a String argument, 4 values")
    }

    private static let perArgumentsTasks: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        container.registerAsync(Made.self) { (_, user: String) in
            tally.increment()
            await speed.asyncWork()
            return Made(serial: tally.value)
        }.scope(.container)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(index % 8) * 5_000_000)
                    _ = try await container.async.resolve(Made.self, arguments: "u\(index % distinctArguments)")
                }
            }
            try await group.waitForAll()
        }
        return excess(tally, due: distinctArguments, "an async .container registration with a String argument, 4 values")
    }

    private static let customScopeAfterReset: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed, scope: .stressSession)
        _ = try container.resolve(Made.self)
        container.resetScope(.stressSession)
        try await race(threads) { _ in
            for _ in 0..<resolvesPerThread { _ = try! container.resolve(Made.self) }
        }
        return excess(tally, due: 2, "a custom-scope instance, once before and once after resetScope")
    }

    /// Every thread keeps the first instance it got until all are done, so the weak scope must
    /// hand out that one instance throughout.
    private static func raceWeak(_ resolve: @escaping @Sendable () throws -> Made, _ tally: LockedCounter) async throws -> Excess {
        let done = StartBarrier(parties: threads)
        let distinct = IdentityCollector()
        try await race(threads) { _ in
            let first = try! resolve()
            distinct.insert(first)
            for _ in 0..<resolvesPerThread {
                let again = try! resolve()
                distinct.insert(again)
            }
            done.arriveAndWait()
            withExtendedLifetime(first) {}
        }
        let made = tally.value
        return made > 1
            ? Excess(extra: made - 1, detail: "a .weak instance held by every thread: made \(made) times, \(distinct.distinctCount) handed out")
            : .none
    }

    private static let weakWhileHeld: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed, scope: .weak)
        return try await raceWeak({ try container.resolve(Made.self) }, tally)
    }

    private static let weakThroughTestContainer: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed, scope: .weak)
        let test = TestContainer(base: container)
        return try await raceWeak({ try test.resolve(Made.self) }, tally)
    }

    private static let recordingTestContainer: Round = { speed in
        let tally = LockedCounter()
        let container = Container()
        registerCounted(in: container, tally, speed)
        let test = TestContainer(base: container)
        try await race(16) { _ in
            for _ in 0..<20 { _ = try! test.resolve(Made.self) }
        }
        let rendered = test.trace.render()
        if rendered.contains("#2") {
            return Excess(extra: max(tally.value - 1, 1), detail: "a recorded singleton with two instance numbers:\n\(rendered.prefix(400))")
        }
        return excess(tally, "a singleton resolved through a recording TestContainer")
    }

    /// Swinject's `testSynchronizedResolverCanAccessParentAndChildContainersWithoutDeadlock`:
    /// a parent's singleton asked for through a child from two queues, a thousand times each.
    private static let swinjectParentAndChild: Round = { speed in
        let tally = LockedCounter()
        let parent = Container()
        parent.register(Pet.self) { _ in
            tally.increment()
            speed.work()
            return Dog()
        }.scope(.container)
        let child = Container(parent: parent)
        let distinct = IdentityCollector()
        try await race(2) { index in
            for _ in 0..<1_000 {
                let pet = try! (index == 0 ? child : parent).resolve(Pet.self)
                distinct.insert(pet)
            }
        }
        return excess(tally, "Swinject's parent-and-child shape (\(distinct.distinctCount) instances handed out)")
    }

    // MARK: Test containers, one per thread, over one shared base

    /// How many times each thread pushes and pops a layer in the layer shapes: each push does a
    /// handful of resolves, so a round stays at a few thousand.
    private static let layerRounds = 32

    /// The value the base answers ``Stamp`` with in the layer shapes; overrides answer with
    /// a value unique to the thread and the push (``uniqueStamp(_:_:)``), never this one.
    private static let baseStamp = StressGatewayModule.stamp

    private static func uniqueStamp(_ thread: Int, _ push: Int) -> Int { thread * 10_000 + push }

    /// Each thread has its own `TestContainer` over one shared base, which holds a counted
    /// `.container` singleton and a plain registration of ``Stamp``. Every push overrides
    /// `Stamp` with a value of its own, which the thread must see, and after the pop the base's
    /// again: a value another thread's container pushed, or one left over from a popped layer,
    /// is a broken promise. The singleton is made once by the base (which every thread also
    /// asks) and once by each test container (which keeps its own, and hands the same one out
    /// inside and outside its pushed layers, as `Made` does not depend on `Stamp`).
    private static let layersPerThread: Round = { speed in
        let tally = LockedCounter()
        let base = Container()
        registerCounted(in: base, tally, speed)
        base.register(Stamp.self) { _ in Stamp(value: baseStamp) }
        let wrong = Mismatches()
        let baseInstances = IdentityCollector()
        try await race(threads) { index in
            let test = TestContainer(base: base)
            let kept = try! test.resolve(Made.self)                   // kept in the test container's own layer
            for push in 0..<layerRounds {
                let expected = uniqueStamp(index, push)
                test.pushLayer("thread \(index), push \(push)")
                test.override(Stamp.self) { _ in Stamp(value: expected) }
                let inside = try! test.resolve(Stamp.self).value
                if inside != expected {
                    wrong.note("thread \(index), push \(push): in the layer, Stamp was \(inside), due its override \(expected)")
                }
                if try! test.resolve(Made.self) !== kept {
                    wrong.note("thread \(index), push \(push): in the layer, the test container's singleton was another instance")
                }
                test.popLayer()
                let after = try! test.resolve(Stamp.self).value
                if after != baseStamp {
                    wrong.note("thread \(index), push \(push): after the pop, Stamp was \(after), due the base's \(baseStamp)")
                }
                if try! test.resolve(Made.self) !== kept {
                    wrong.note("thread \(index), push \(push): after the pop, the test container's singleton was another instance")
                }
                baseInstances.insert(try! base.resolve(Made.self))
            }
            let layers = test.layerNames
            if !layers.isEmpty {
                wrong.note("thread \(index): layers still pushed after every pop: \(layers)")
            }
        }
        if baseInstances.distinctCount != 1 {
            wrong.note("the base handed out \(baseInstances.distinctCount) instances of its singleton")
        }
        // One for the base, one for each thread's test container.
        return wrong.excess(
            made: tally.value, due: threads + 1, "a .container singleton, once in the base and once per TestContainer (\(threads))")
    }

    /// Each thread has its own `TestContainer` over a base built from ``StressGatewayModule``,
    /// and replaces that module, in a pushed layer, with a ``StressFakeGatewayModule`` whose
    /// `Stamp` is unique to the thread and the push. Inside the layer the fake answers; after
    /// the pop the base module's `.container` instance is back, the very one the test
    /// container kept before the push (so the module's factory runs once per test container).
    private static let moduleReplacedPerThread: Round = { speed in
        let tally = LockedCounter()
        let fakes = LockedCounter()
        let base = Container(modules: [StressGatewayModule(tally: tally, speed: speed)])
        let wrong = Mismatches()
        try await race(threads) { index in
            let test = TestContainer(base: base)
            let kept = try! test.resolve(StampBox.self)
            if kept.value != baseStamp {
                wrong.note("thread \(index): before any push, Stamp was \(kept.value), due the module's \(baseStamp)")
            }
            for push in 0..<layerRounds {
                let expected = uniqueStamp(index, push)
                test.pushLayer("thread \(index), push \(push)")
                do {
                    try test.replace(StressGatewayModule.self, with: StressFakeGatewayModule(stamp: expected, made: fakes))
                } catch {
                    wrong.note("thread \(index), push \(push): replace threw \(error)")
                }
                let inside = try! test.resolve(StampBox.self)
                if inside.value != expected {
                    wrong.note("thread \(index), push \(push): with the module replaced, Stamp was \(inside.value), due the replacement's \(expected)")
                }
                test.popLayer()
                let after = try! test.resolve(StampBox.self)
                if after.value != baseStamp {
                    wrong.note("thread \(index), push \(push): after the pop, Stamp was \(after.value), due the module's \(baseStamp)")
                } else if after !== kept {
                    wrong.note("thread \(index), push \(push): after the pop, the module's .container instance was another one than before the push")
                }
            }
        }
        let fakesDue = threads * layerRounds
        if fakes.value != fakesDue {
            wrong.note("the replacement module's factory ran \(fakes.value) times, due once per pushed layer (\(fakesDue))")
        }
        return wrong.excess(
            made: tally.value, due: threads, "the replaced module's .container instance, once per TestContainer (\(threads))")
    }

    /// A live-only `.container` registration (and a `.graph` one depending on it, for "at any
    /// depth"), asked for by every thread through its own `TestContainer`, which must throw the
    /// live-only error each time without running the factory, and through the shared base,
    /// which must run the factory exactly once.
    private static let liveOnlyUnderContention: Round = { speed in
        let tally = LockedCounter()
        let base = Container()
        base.register(Made.self) { _ in
            tally.increment()
            speed.work()
            return Made(serial: tally.value)
        }.scope(.container).liveOnly()
        base.register(Holder.self) { r in try Holder(made: r.resolve(Made.self)) }
        let wrong = Mismatches()
        let baseInstances = IdentityCollector()
        try await race(threads) { index in
            let test = TestContainer(base: base)
            for attempt in 0..<layerRounds {
                for (what, resolve) in [
                    ("Made", { _ = try test.resolve(Made.self) }),
                    ("Holder -> Made", { _ = try test.resolve(Holder.self) }),
                ] as [(String, () throws -> Void)] {
                    do {
                        try resolve()
                        wrong.note("thread \(index), attempt \(attempt): a TestContainer resolved live-only \(what) instead of throwing")
                    } catch let error as ResolutionError {
                        if case .liveOnly = error.reason {} else {
                            wrong.note("thread \(index), attempt \(attempt): \(what) threw another error than live-only: \(error)")
                        }
                    } catch {
                        wrong.note("thread \(index), attempt \(attempt): \(what) threw a \(type(of: error)), not a ResolutionError: \(error)")
                    }
                }
                baseInstances.insert(try! base.resolve(Made.self))
                baseInstances.insert(try! base.resolve(Holder.self).made)
            }
        }
        if baseInstances.distinctCount != 1 {
            wrong.note("the base handed out \(baseInstances.distinctCount) instances of its live-only singleton")
        }
        return wrong.excess(
            made: tally.value, due: 1, "a live-only .container singleton, run once by the base and never by a TestContainer")
    }
}

/// A value the layer shapes compare: overrides answer with one unique to a thread and a push.
struct Stamp: Sendable, Equatable {
    let value: Int
}

/// The `.container` instance the module-replacement shape keeps, compared by identity too.
final class StampBox: @unchecked Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}

/// The app's module in the module-replacement shape: a counted `.container` ``StampBox``.
struct StressGatewayModule: Module {
    /// What the base answers `Stamp` (or `StampBox`) with; never a value an override uses.
    static let stamp = -1

    let tally: LockedCounter
    let speed: FactorySpeed

    func register(in container: Container) {
        let tally = tally, speed = speed
        container.register(StampBox.self) { _ in
            tally.increment()
            speed.work()
            return StampBox(value: Self.stamp)
        }.scope(.container)
    }
}

/// The test's replacement for ``StressGatewayModule``, answering with its own stamp.
struct StressFakeGatewayModule: Module {
    let stamp: Int
    let made: LockedCounter

    func register(in container: Container) {
        let stamp = stamp, made = made
        container.register(StampBox.self) { _ in
            made.increment()
            return StampBox(value: stamp)
        }.scope(.container)
    }
}

/// Wrong values seen by racing threads: how many, and the first few, under one lock.
private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var first: [String] = []

    func note(_ what: String) {
        lock.withLock {
            count += 1
            if first.count < 3 { first.append(what) }
        }
    }

    /// The wrong values seen, plus any instances made beyond `due` (or fewer than due, for a
    /// shape that counts what must be made exactly `due` times).
    func excess(made: Int, due: Int, _ what: String) -> StressShape.Excess {
        let (count, first) = lock.withLock { (self.count, self.first) }
        var parts: [String] = []
        if made != due { parts.append("\(what): made \(made) times, due \(due)") }
        if count > 0 { parts.append("\(count) wrong value(s) seen, first: " + first.joined(separator: "; ")) }
        let extra = count + abs(made - due)
        return extra > 0 ? StressShape.Excess(extra: extra, detail: parts.joined(separator: " | ")) : .none
    }
}
