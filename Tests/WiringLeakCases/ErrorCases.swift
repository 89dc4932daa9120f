import Foundation
import Wiring

// The paths that fail: each error is checked by its identifier, at the top level and at depth,
// and the container is used again after it, so that a failed call must have let go of its
// claims as well as its memory.

final class Missing: @unchecked Sendable {}

final class Node: @unchecked Sendable {
    let next: Node?
    init(next: Node?) { self.next = next }
}

final class Ping: @unchecked Sendable {
    let pong: Pong
    init(pong: Pong) { self.pong = pong }
}

final class Pong: @unchecked Sendable {
    let ping: Ping
    init(ping: Ping) { self.ping = ping }
}

/// Holds a lazy and a provider of a service nobody registered: the resolve that injects them
/// succeeds, their first use fails.
final class WaitsForMissing: @unchecked Sendable {
    let lazy: Lazy<Missing>
    let provider: Provider<Missing>
    init(lazy: Lazy<Missing>, provider: Provider<Missing>) {
        self.lazy = lazy
        self.provider = provider
    }
}

struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

let errorCases: [LeakCase] = [
    LeakCase("missing-behind-lazy", "a Lazy of a missing service, injected, then used after the resolve: not-registered", {
        try missingBehindLater(useLazy: true)
    }),
    LeakCase(
        "missing-behind-provider", "a Provider of a missing service, injected, then called after the resolve: not-registered",
        { try missingBehindLater(useLazy: false) }),
    LeakCase("wrong-argument-types", "runtime arguments of other types, directly, at depth, by Provider and Lazy: not-registered", {
        try wrongArgumentTypes()
    }),
    LeakCase("wrong-arity", "fewer and more runtime arguments than the factory takes: not-registered", { try wrongArity() }),
    LeakCase("cycle", "two .graph services that need each other, and a .container one that needs itself: circular-dependency", {
        try cycle()
    }),
    LeakCase("cycle-through-provider", "a factory calling a Provider of its own service: circular-dependency", {
        try cycleThroughLater(useLazy: false)
    }),
    LeakCase("cycle-through-lazy", "a factory reading a Lazy of its own service: circular-dependency", {
        try cycleThroughLater(useLazy: true)
    }),
    LeakCase("throwing-factory", "a factory and a hook that throw, at the top and at depth, and a singleton retried: factory-failed", {
        try throwingFactory()
    }),
    LeakCase("too-deep", "a chain of 1,100 registrations, deeper than the limit: resolution-too-deep", { try tooDeep() }),
    LeakCase(
        "async-errors", "async resolves that fail: not-registered, factory-failed, circular-dependency, requires-await",
        { try await asyncErrors() }),
]

private func missingBehindLater(useLazy: Bool) throws {
    let container = Container()
    container.register(WaitsForMissing.self) { r in try WaitsForMissing(lazy: r.resolve(), provider: r.resolve()) }
    container.register(Leaf.self) { _ in Leaf() }
    let holder = try container.resolve(WaitsForMissing.self)
    for attempt in 1...2 {
        let error = try expectError("not-registered", "attempt \(attempt)") {
            if useLazy { try holder.lazy.value } else { try holder.provider() }
        }
        try check(error.key == ServiceKey(Missing.self), "the error named \(error.key), not Missing")
    }
    if useLazy {
        try check(holder.lazy.isResolved, "a lazy that failed does not say it was resolved")
    }
    // Resolved directly, a lazy or a provider of a missing service fails the same way.
    try expectError("not-registered", "a Lazy resolved from the container") {
        try container.resolve(Lazy<Missing>.self).value
    }
    try expectError("not-registered", "a Provider resolved from the container") {
        try container.resolve(Provider<Missing>.self)()
    }
    _ = try container.resolve(Leaf.self)
}

private func wrongArgumentTypes() throws {
    let container = Container()
    container.register(Greeting.self) { (_, word: String) in Greeting(text: word) }
    container.register(Screen.self) { r in
        // At depth: an Int where the factory takes a String.
        _ = try r.resolve(Greeting.self, arguments: 42)
        return try Screen(resolver: r)
    }
    try expectError("not-registered", "an Int for a String") { try container.resolve(Greeting.self, arguments: 42) }
    try expectError("not-registered", "at depth") { try container.resolve(Screen.self) }
    try expectError("not-registered", "a provider called with an Int") {
        try container.resolve(Provider<Greeting>.self)(42)
    }
    try expectError("not-registered", "a lazy resolved with an Int") {
        try container.resolve(Lazy<Greeting>.self, arguments: 42).value
    }
    try check(try container.resolve(Greeting.self, arguments: "right").text == "right", "the right argument failed after the wrong ones")
}

private func wrongArity() throws {
    let container = Container()
    container.register(Greeting.self) { (_, word: String, times: Int) in
        Greeting(text: Array(repeating: word, count: times).joined())
    }
    try expectError("not-registered", "one argument of two") { try container.resolve(Greeting.self, arguments: "a") }
    try expectError("not-registered", "three arguments of two") {
        try container.resolve(Greeting.self, arguments: "a", 2, true)
    }
    try expectError("not-registered", "none of two") { try container.resolve(Greeting.self) }
    try expectError("not-registered", "a provider called with one of two") {
        try container.resolve(Provider<Greeting>.self)("a")
    }
    try check(try container.resolve(Greeting.self, arguments: "a", 2).text == "aa", "the right arity failed after the wrong ones")
}

private func cycle() throws {
    let container = Container()
    container.register(Ping.self) { r in try Ping(pong: r.resolve()) }
    container.register(Pong.self) { r in try Pong(ping: r.resolve()) }
    container.register(Node.self) { r in try Node(next: r.resolve(Node.self)) }.scope(.container)
    let error = try expectError("circular-dependency", "Ping -> Pong -> Ping") { try container.resolve(Ping.self) }
    try check(error.description.contains("cycle: Ping -> Pong -> Ping"), "the cycle was reported as \(error)")
    try expectError("circular-dependency", "Pong -> Ping -> Pong") { try container.resolve(Pong.self) }
    // A .container singleton's claim is given up when its factory fails: the next call fails the same way.
    for attempt in 1...2 {
        try expectError("circular-dependency", "a singleton needing itself, attempt \(attempt)") {
            try container.resolve(Node.self)
        }
    }
}

private func cycleThroughLater(useLazy: Bool) throws {
    let container = Container()
    if useLazy {
        container.register(Node.self) { r in try Node(next: r.resolve(Lazy<Node>.self).value) }
    } else {
        container.register(Node.self) { r in try Node(next: r.resolve(Provider<Node>.self)()) }
    }
    let error = try expectError("circular-dependency", "through \(useLazy ? "Lazy" : "Provider")") {
        try container.resolve(Node.self)
    }
    try check(error.description.contains("cycle: Node -> Node"), "the cycle was reported as \(error)")
    // Behind a provider or lazy that is kept and used later, there is no cycle.
    container.register(WaitsForMissing.self) { r in try WaitsForMissing(lazy: r.resolve(), provider: r.resolve()) }
    container.register(Missing.self) { _ in Missing() }
    let holder = try container.resolve(WaitsForMissing.self)
    _ = try holder.lazy.value
    _ = try holder.provider()
}

private func throwingFactory() throws {
    let container = Container()
    container.register(Missing.self) { _ -> Missing in throw DiskFull() }
    container.register(Leaf.self) { _ in Leaf() }.initCompleted { _, _ in throw DiskFull() }
    container.register(Node.self) { r in
        _ = try r.resolve(Missing.self)
        return Node(next: nil)
    }
    let attempts = Attempts()
    container.register(Config.self) { _ in
        // Fails the first time only: the singleton's claim must be given up, and the retry keeps the second.
        if attempts.next() == 1 { throw DiskFull() }
        return Config()
    }.scope(.container)
    let error = try expectError("factory-failed", "a throwing factory") { try container.resolve(Missing.self) }
    try check(error.underlyingError is DiskFull, "the underlying error is \(String(describing: error.underlyingError))")
    try expectError("factory-failed", "a throwing hook") { try container.resolve(Leaf.self) }
    try expectError("factory-failed", "a throwing factory at depth") { try container.resolve(Node.self) }
    try expectError("factory-failed", "a singleton's first attempt") { try container.resolve(Config.self) }
    let config = try container.resolve(Config.self)
    try check(try container.resolve(Config.self) === config, "the retried singleton was not kept")
}

/// Counts calls from any thread.
final class Attempts: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The number of this call, from 1.
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    /// How many calls there were.
    var value: Int { lock.withLock { count } }
}

private func tooDeep() throws {
    let container = Container()
    container.register(Int.self, name: "0") { _ in 0 }
    for depth in 1...1_100 {
        container.register(Int.self, name: "\(depth)") { r in try r.resolve(Int.self, name: "\(depth - 1)") + 1 }
    }
    try expectError("resolution-too-deep", "a chain of 1,100") { try container.resolve(Int.self, name: "1100") }
    try check(try container.resolve(Int.self, name: "100") == 100, "a shallower chain failed after the deep one")
}

private func asyncErrors() async throws {
    let container = Container()
    container.registerAsync(Connection.self) { _ -> Connection in
        await Task.yield()
        throw DiskFull()
    }
    container.registerAsync(Ping.self) { r in try await Ping(pong: r.resolve()) }
    container.registerAsync(Pong.self) { r in try await Pong(ping: r.resolve()) }
    container.registerAsync(Repository.self) { r in try await Repository(connection: r.resolve(), config: r.resolve()) }
        .scope(.container)
    container.register(Config.self) { _ in Config() }
    try await expectError("not-registered", "an async resolve of a missing service") {
        try await container.async.resolve(Missing.self)
    }
    try await expectError("factory-failed", "an async factory that throws") {
        try await container.async.resolve(Connection.self)
    }
    try await expectError("factory-failed", "an async singleton whose dependency throws") {
        try await container.async.resolve(Repository.self)
    }
    try await expectError("circular-dependency", "an async cycle") { try await container.async.resolve(Ping.self) }
    try expectError("requires-await", "a synchronous resolve of an async factory") {
        try container.resolve(Connection.self)
    }
}
