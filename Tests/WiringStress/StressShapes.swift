import Foundation
import Wiring
import WiringTestHelpers
import WiringTestSupport

/// The kept-instance shapes the stress test races; each counts the instances its factory made.
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
}
