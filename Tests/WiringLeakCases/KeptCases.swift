import Foundation
import Wiring
import WiringTestSupport

// What outlives its call: a resolver, provider and lazy kept by an instance and used after the
// container is gone; and a TestContainer with a pushed layer, an override and a recorded trace.

/// Keeps the resolver its factory was given, and a provider and a lazy made from it, to use later.
final class KeepsItsResolver: @unchecked Sendable {
    let resolver: any Resolver
    let provider: Provider<Leaf>
    let lazy: Lazy<Leaf>
    init(resolver: any Resolver) throws {
        self.resolver = resolver
        provider = try resolver.resolve()
        lazy = try resolver.resolve()
    }
}

/// A test double of ``Config``'s consumer.
final class Gateway: @unchecked Sendable {
    let label: String
    let config: Config
    init(label: String, config: Config) {
        self.label = label
        self.config = config
    }
}

let keptCases: [LeakCase] = [
    LeakCase(
        "resolver-kept-past-its-call",
        "an instance keeps its resolver, a Provider and a Lazy, and uses them during and after its container's life",
        { try resolverKeptPastItsCall() }),
    LeakCase(
        "test-container", "a TestContainer over a base: a pushed layer with an override, a recorded trace, the pop",
        { try testContainer() }),
]

private func resolverKeptPastItsCall() throws {
    weak var weakContainer: Container?
    let kept: KeepsItsResolver
    do {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Config.self) { _ in Config() }.scope(.container)
        container.register(KeepsItsResolver.self) { r in try KeepsItsResolver(resolver: r) }.scope(.container)
        kept = try container.resolve(KeepsItsResolver.self)
        weakContainer = container
        // While the container lives, each starts a call of its own.
        _ = try kept.resolver.resolve(Leaf.self)
        let config = try kept.resolver.resolve(Config.self)
        try check(try container.resolve(Config.self) === config, "a kept resolver made a second singleton")
        _ = try kept.provider()
        try check(try kept.provider() !== kept.provider(), "a kept provider gave the same .graph Leaf twice")
    }
    try check(weakContainer == nil, "an instance keeping its resolver kept its container alive")
    for (what, use) in [
        ("the resolver", { _ = try kept.resolver.resolve(Leaf.self) }),
        ("the resolver's resolveAll", { _ = try kept.resolver.resolveAll(Leaf.self) }),
        ("the provider", { _ = try kept.provider() }),
        ("the lazy", { _ = try kept.lazy.value }),
    ] as [(String, () throws -> Void)] {
        try expectError("container-released", what, use)
    }
}

private func testContainer() throws {
    let base = Container()
    base.register(Config.self) { _ in Config() }.scope(.container)
    base.register(Gateway.self) { r in try Gateway(label: "live", config: r.resolve()) }.scope(.container)
    base.register(Screen.self) { r in try Screen(resolver: r) }
    base.register(Session.self) { _ in Session() }.scope(.leakSession)
    base.register(Cache.self) { _ in Cache() }.scope(.weak)
    base.register(Leaf.self) { _ in Leaf() }
    base.register(Greeting.self) { (_, word: String, times: Int) in Greeting(text: word + "\(times)") }

    let test = TestContainer(base: base)
    let live = try test.resolve(Gateway.self)
    try check(live.label == "live", "before any push, the gateway was \(live.label)")
    test.pushLayer("fake gateway")
    test.override(Gateway.self) { r in try Gateway(label: "fake", config: r.resolve()) }
    let fake = try test.resolve(Gateway.self)
    try check(fake.label == "fake", "the override was not used: \(fake.label)")
    _ = try test.resolve(Screen.self)
    _ = try test.resolve(Provider<Gateway>.self)()
    try check(!test.trace.roots.isEmpty, "the test container recorded no trace")
    try check(test.trace.render().contains("Gateway"), "the trace does not show the Gateway: \(test.trace.render())")
    try check(test.resolutionCount(of: Gateway.self) >= 2, "the trace counted \(test.resolutionCount(of: Gateway.self)) Gateways")
    test.popLayer()
    try check(test.layerNames.isEmpty, "layers still pushed after the pop: \(test.layerNames)")
    try check(try test.resolve(Gateway.self) === live, "after the pop, the test container's own Gateway is another")
    try check(try base.resolve(Gateway.self) !== live, "the test container shared its Gateway with the base")
    test.clearTrace()
    _ = try test.resolve(Leaf.self)
    try check(test.trace.roots.count == 1, "a cleared trace recorded \(test.trace.roots.count) roots for one resolve")
}
