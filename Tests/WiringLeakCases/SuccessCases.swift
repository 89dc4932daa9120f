import Foundation
import Wiring

// The paths that succeed: every scope, a child container, Provider, Lazy, hooks, runtime
// arguments, resolveAll, and the async resolve with an async factory.

final class Config: @unchecked Sendable {}

final class Session: @unchecked Sendable {}

final class Cache: @unchecked Sendable {}

final class Leaf: @unchecked Sendable {}

final class Greeting: @unchecked Sendable {
    let text: String
    init(text: String) { self.text = text }
}

protocol Plugin: AnyObject, Sendable {
    var id: String { get }
}

final class NamedPlugin: Plugin, @unchecked Sendable {
    let id: String
    init(id: String) { self.id = id }
}

/// Depends on something of every scope, and on a provider and a lazy.
final class Screen: @unchecked Sendable {
    let config: Config
    let session: Session
    let cache: Cache
    let first: Leaf
    let second: Leaf
    let fresh: Provider<Leaf>
    let later: Lazy<Greeting>
    var hooked = false

    init(resolver r: any Resolver) throws {
        config = try r.resolve()
        session = try r.resolve()
        cache = try r.resolve()
        first = try r.resolve()
        second = try r.resolve()
        fresh = try r.resolve()
        later = try r.resolve(Lazy<Greeting>.self, arguments: "hello", 2)
    }
}

/// Made in the child container, from the parent's registrations and its own.
final class Overlay: @unchecked Sendable {
    let screen: Screen
    let leaf: Leaf
    init(screen: Screen, leaf: Leaf) {
        self.screen = screen
        self.leaf = leaf
    }
}

final class Connection: @unchecked Sendable {
    let url: String
    init(url: String) { self.url = url }
}

final class Repository: @unchecked Sendable {
    let connection: Connection
    let config: Config
    init(connection: Connection, config: Config) {
        self.connection = connection
        self.config = config
    }
}

extension Scope {
    static let leakSession = Scope("leak-session")
}

let successCases: [LeakCase] = [
    LeakCase(
        "success",
        "every scope, a child container, Provider, Lazy, initCompleted hooks, runtime arguments, resolveAll",
        { try successfulGraph() }),
    LeakCase(
        "success-async",
        "container.async.resolve with registerAsync factories, .graph and .container, and a hook",
        { try await successfulAsync() }),
]

private func successfulGraph() throws {
    let container = Container()
    container.register(Config.self) { _ in Config() }.scope(.container)
    container.register(Session.self) { _ in Session() }.scope(.leakSession)
    container.register(Cache.self) { _ in Cache() }.scope(.weak)
    container.register(Leaf.self) { _ in Leaf() }.scope(.graph)
    container.register(Greeting.self) { (_, word: String, times: Int) in
        Greeting(text: Array(repeating: word, count: times).joined(separator: " "))
    }.scope(.transient)
    container.register(Screen.self) { r in try Screen(resolver: r) }
        .scope(.transient)
        .initCompleted { r, screen in
            screen.hooked = true
            // A hook resolves within the call: the same .graph leaf.
            let leaf = try r.resolve(Leaf.self)
            try check(leaf === screen.first, "a hook's .graph Leaf is another than the factory's")
        }
    for id in ["a", "b", "c"] {
        container.register(Plugin.self, name: id) { _ in NamedPlugin(id: id) }
    }

    let screen = try container.resolve(Screen.self)
    try check(screen.hooked, "the initCompleted hook did not run")
    try check(screen.first === screen.second, ".graph is not shared within one call")
    try check(try screen.fresh() !== screen.first, "a provider called later shared the call's .graph Leaf")
    let later = try screen.later.value.text
    try check(later == "hello hello", "the lazy with arguments resolved \(later)")
    let again = try container.resolve(Screen.self)
    try check(again !== screen, ".transient gave the same Screen twice")
    try check(again.config === screen.config, ".container made a second Config")
    try check(again.session === screen.session, "a custom scope made a second Session before a reset")
    try check(again.cache === screen.cache, ".weak made a second Cache while it was held")
    try check(again.first !== screen.first, ".graph shared a Leaf between two calls")
    container.resetScope(.leakSession)
    try check(try container.resolve(Session.self) !== screen.session, "resetScope kept the Session")

    let plugins = try container.resolveAll(Plugin.self)
    try check(plugins.map(\.id) == ["a", "b", "c"], "resolveAll gave \(plugins.map(\.id))")
    let greeting = try container.resolve(Greeting.self, arguments: "hi", 3)
    try check(greeting.text == "hi hi hi", "runtime arguments gave \(greeting.text)")
    let provider = try container.resolve(Provider<Greeting>.self)
    try check(try provider("yo", 1).text == "yo", "a provider with arguments gave another greeting")

    // A child container: the parent's registrations, its own, and its own .container instances.
    do {
        let child = Container(parent: container)
        child.register(Overlay.self) { r in try Overlay(screen: r.resolve(), leaf: r.resolve()) }.scope(.container)
        child.register(Plugin.self, name: "d") { _ in NamedPlugin(id: "d") }
        let overlay = try child.resolve(Overlay.self)
        try check(overlay.screen.config === screen.config, "the child made its own parent's Config")
        try check(overlay.screen.first === overlay.leaf, ".graph is not shared across parent and child")
        try check(try child.resolve(Overlay.self) === overlay, "the child's .container made a second Overlay")
        try check(try child.resolveAll(Plugin.self).count == 4, "the child's resolveAll missed its parent's plugins")
        let lazy = try child.resolve(Lazy<Overlay>.self)
        try check(try lazy.value === overlay, "a lazy from the child gave another Overlay")
    }
}

private func successfulAsync() async throws {
    let container = Container()
    container.register(Config.self) { _ in Config() }.scope(.container)
    container.register(String.self) { _ in "db://local" }
    container.registerAsync(Connection.self) { r in
        try await Task.sleep(nanoseconds: 1_000_000)
        return try await Connection(url: r.resolve(String.self))
    }.scope(.container)
    container.registerAsync(Repository.self) { r in
        try await Repository(connection: r.resolve(), config: r.resolve())
    }.initCompleted { r, repository in
        let config = try r.resolve(Config.self)
        try check(config === repository.config, "a hook of an async registration saw another Config")
    }
    container.registerAsync(Greeting.self) { (_, word: String) in
        await Task.yield()
        return Greeting(text: word)
    }

    let repository = try await container.async.resolve(Repository.self)
    let again = try await container.async.resolve(Repository.self)
    try check(repository !== again, "an async .graph registration gave the same instance twice")
    try check(repository.connection === again.connection, "an async .container singleton was made twice")
    try check(repository.connection.url == "db://local", "the async factory resolved \(repository.connection.url)")
    let greeting = try await container.async.resolve(Greeting.self, arguments: "hey")
    try check(greeting.text == "hey", "an async factory with an argument gave \(greeting.text)")
    let child = Container(parent: container)
    try check(
        try await child.async.resolve(Connection.self) === repository.connection,
        "a child made its own parent's async singleton")
    let config: Config = try await container.async.resolve()
    try check(config === repository.config, "a synchronous registration resolved async made another Config")
}
