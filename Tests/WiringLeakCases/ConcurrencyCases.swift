import Foundation
import Wiring
import WiringTestHelpers

// The paths other threads and tasks take: registering while resolving, with child containers
// made and dropped; waiting for a singleton another thread is making; backing off and retrying
// when two threads each make one of two singletons that need each other; async tasks racing.

/// Slow to make, so that other threads arrive while the first makes it.
final class Slow: @unchecked Sendable {
    init() { usleep(20_000) }
}

/// Two singletons whose hooks resolve each other. The references between them are weak, so that
/// the container's are the only strong ones and dropping the container frees both.
final class Hooked: @unchecked Sendable {
    weak var partner: Partner?
}

final class Partner: @unchecked Sendable {
    weak var hooked: Hooked?
}

/// A deadlock, or a thread that never ended.
struct Hung: Error, CustomStringConvertible {
    let what: String
    var description: String { "\(what) did not finish in time: a deadlock?" }
}

let concurrencyCases: [LeakCase] = [
    LeakCase(
        "register-and-resolve-concurrently",
        "8 threads registering in a parent and in children they make and drop, 30 rounds each, resolving, resolveAll",
        { try await registerAndResolveConcurrently() }),
    LeakCase("singleton-wait", "8 threads asking for a slow .container singleton at once: 7 wait for the first", {
        try await singletonWait()
    }),
    LeakCase(
        "singleton-factory-waits-on-another-thread",
        "a .container factory blocking on another thread that makes another singleton of the container",
        { try singletonFactoryWaitsOnAnotherThread() }),
    LeakCase(
        "hooks-back-off-and-retry",
        "two .container singletons whose hooks resolve each other, raced from 8 threads: one call backs off and retries",
        { try await hooksBackOffAndRetry() }),
    LeakCase("async-singleton-race", "async let and a task group racing an async .container singleton and its dependency", {
        try await asyncSingletonRace()
    }),
]

private func registerAndResolveConcurrently() async throws {
    let made = Attempts()
    let parent = Container()
    parent.register(Leaf.self) { _ in
        _ = made.next()
        return Leaf()
    }.scope(.container)
    parent.register(Config.self) { _ in Config() }.scope(.weak)
    let failures = Failures()
    let leaves = IdentityCollector()
    try await race("8 threads registering and resolving") { thread in
        // A child kept for a few rounds, then dropped for a new one.
        var kept = Container(parent: parent)
        for round in 0..<30 {
            do {
                parent.register(Plugin.self, name: "\(thread)-\(round)") { _ in NamedPlugin(id: "\(thread)-\(round)") }
                let child = Container(parent: parent)
                child.register(Overlay.self) { r in
                    try Overlay(screen: Screen(resolver: r), leaf: r.resolve())
                }.scope(.container)
                child.register(Screen.self) { r in try Screen(resolver: r) }
                child.register(Session.self) { _ in Session() }
                child.register(Cache.self) { _ in Cache() }.scope(.weak)
                child.register(Greeting.self) { (_, word: String, times: Int) in Greeting(text: word + "\(times)") }
                let overlay = try child.resolve(Overlay.self)
                leaves.insert(overlay.leaf)
                leaves.insert(try kept.resolve(Leaf.self))
                let plugin = try child.resolve(Plugin.self, name: "\(thread)-\(round)")
                if plugin.id != "\(thread)-\(round)" { failures.note("thread \(thread): plugin \(plugin.id)") }
                _ = try child.resolveAll(Plugin.self)
                _ = try kept.resolve(Provider<Leaf>.self)()
                kept.register(Missing.self, name: "\(round)") { _ in Missing() }
                if round.isMultiple(of: 10) { kept = Container(parent: parent) }
            } catch {
                failures.note("thread \(thread), round \(round): \(error)")
            }
        }
    }
    try failures.check()
    try check(made.value == 1, "the parent's singleton was made \(made.value) times")
    try check(leaves.distinctCount == 1, "\(leaves.distinctCount) different parent singletons handed out")
    try check(parent.registeredKeys.count == 2 + 8 * 30, "the parent has \(parent.registeredKeys.count) registrations")
}

private func singletonWait() async throws {
    for round in 1...5 {
        let made = Attempts()
        let container = Container()
        container.register(Slow.self) { _ in
            _ = made.next()
            return Slow()
        }.scope(.container)
        container.register(Node.self) { r in
            _ = try r.resolve(Slow.self)
            return Node(next: nil)
        }
        let seen = IdentityCollector()
        let failures = Failures()
        try await race("round \(round): 8 threads asking for a slow singleton") { index in
            do {
                // Half wait at the top level, half from inside another factory.
                if index.isMultiple(of: 2) {
                    seen.insert(try container.resolve(Slow.self))
                } else {
                    _ = try container.resolve(Node.self)
                }
            } catch {
                failures.note("thread \(index): \(error)")
            }
        }
        try failures.check()
        try check(made.value == 1, "round \(round): the singleton was made \(made.value) times")
        try check(seen.distinctCount == 1, "round \(round): \(seen.distinctCount) different singletons handed out")
    }
}

private func singletonFactoryWaitsOnAnotherThread() throws {
    let container = Container()
    container.register(Slow.self) { _ in Slow() }.scope(.container)
    container.register(Leaf.self) { _ in Leaf() }
    // The factory captures its container weakly: strongly, the container would keep its own
    // factory and the factory the container, a cycle no case may leave behind.
    container.register(Node.self) { [weak container] r in
        guard let container else { throw LeakCaseFailure("the container was freed while its factory ran") }
        let result = Failures()
        try onAnotherThread("the thread the factory waits on") {
            do {
                // Through the captured container, and through the factory's own resolver,
                // which on another thread starts a call of its own.
                _ = try container.resolve(Slow.self)
                _ = try r.resolve(Leaf.self)
            } catch {
                result.note("the other thread's resolve: \(error)")
            }
        }
        try result.check()
        return Node(next: nil)
    }.scope(.container)
    let node = try container.resolve(Node.self)
    try check(try container.resolve(Node.self) === node, "the singleton was made twice")
    _ = try container.resolve(Slow.self)
}

private func hooksBackOffAndRetry() async throws {
    for speed in FactorySpeed.allCases {
        for round in 1...(speed == .fast ? 20 : 5) {
            let container = Container()
            container.register(Hooked.self) { _ in Hooked() }
                .scope(.container)
                .initCompleted { r, hooked in
                    speed.work()
                    hooked.partner = try r.resolve(Partner.self)
                }
            container.register(Partner.self) { _ in Partner() }
                .scope(.container)
                .initCompleted { r, partner in
                    speed.work()
                    partner.hooked = try r.resolve(Hooked.self)
                }
            let hookeds = IdentityCollector()
            let partners = IdentityCollector()
            let failures = Failures()
            try await race("\(speed) round \(round): 8 threads racing the hooked pair") { index in
                do {
                    if index.isMultiple(of: 2) {
                        let hooked = try container.resolve(Hooked.self)
                        if hooked.partner == nil { failures.note("thread \(index): a Hooked before its hook ran") }
                        hookeds.insert(hooked)
                    } else {
                        let partner = try container.resolve(Partner.self)
                        if partner.hooked == nil { failures.note("thread \(index): a Partner before its hook ran") }
                        partners.insert(partner)
                    }
                } catch {
                    failures.note("thread \(index): \(error)")
                }
            }
            try failures.check()
            try check(
                hookeds.distinctCount == 1 && partners.distinctCount == 1,
                "\(speed) round \(round): handed out \(hookeds.distinctCount) Hooked and \(partners.distinctCount) Partners")
            let hooked = try container.resolve(Hooked.self)
            try check(hooked.partner?.hooked === hooked, "\(speed) round \(round): the pair does not point at each other")
        }
    }
}

private func asyncSingletonRace() async throws {
    for round in 1...5 {
        let made = Attempts()
        let container = Container()
        container.registerAsync(Connection.self) { _ in
            _ = made.next()
            try await Task.sleep(nanoseconds: 2_000_000)
            return Connection(url: "shared")
        }.scope(.container)
        container.registerAsync(Repository.self) { r in
            _ = made.next()
            return try await Repository(connection: r.resolve(), config: r.resolve())
        }.scope(.container)
        container.register(Config.self) { _ in Config() }.scope(.container)
        async let first = container.async.resolve(Repository.self)
        async let second = container.async.resolve(Connection.self)
        let seen = IdentityCollector()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        seen.insert(try await container.async.resolve(Connection.self))
                    } else {
                        seen.insert(try await container.async.resolve(Repository.self).connection)
                    }
                }
            }
            try await group.waitForAll()
        }
        let (repository, connection) = try await (first, second)
        seen.insert(repository.connection)
        seen.insert(connection)
        try check(made.value == 2, "round \(round): the two async singletons were made \(made.value) times in all")
        try check(seen.distinctCount == 1, "round \(round): \(seen.distinctCount) different connections handed out")
    }
}

/// What went wrong on racing threads: how many, and the first few, under one lock.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var first: [String] = []

    /// Notes one.
    func note(_ what: String) {
        lock.withLock {
            count += 1
            if first.count < 3 { first.append(what) }
        }
    }

    /// Fails the case if anything went wrong.
    func check() throws {
        let (count, first) = lock.withLock { (self.count, self.first) }
        if count > 0 { throw LeakCaseFailure("\(count) failure(s), first: " + first.joined(separator: "; ")) }
    }
}
