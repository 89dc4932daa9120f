import Testing
import Wiring
import WiringTestSupport

/// A kept instance that holds a `Provider` or a `Lazy` of an overridden type comes back when a
/// layer pops, like any other: what it was made with counts the provider as what it resolves.
@Suite("Provenance through providers and lazies")
struct ProviderProvenanceTests {
    class Dep {}
    final class FakeDep: Dep {}
    final class Tick {}
    final class Holder: @unchecked Sendable {
        let deps: Provider<Dep>
        let lazyDep: Lazy<Dep>
        let tick: Tick
        init(deps: Provider<Dep>, lazyDep: Lazy<Dep>, tick: Tick) {
            self.deps = deps
            self.lazyDep = lazyDep
            self.tick = tick
        }
    }

    private func makeBase() -> Container {
        let base = Container()
        base.register(Dep.self) { _ in Dep() }
        base.register(Tick.self) { _ in Tick() }.scope(.container)
        base.register(Holder.self) { r in try Holder(deps: r.resolve(), lazyDep: r.resolve(), tick: r.resolve()) }
            .scope(.container)
        return base
    }

    @Test func poppingALayerBringsBackASingletonThatHoldsAProviderOfAnOverriddenType() throws {
        let test = TestContainer(base: makeBase())
        test.override(Dep.self) { _ in FakeDep() }
        let original = try test.resolve(Holder.self)
        #expect(try original.deps() is FakeDep)

        test.pushLayer("x")
        test.override(Tick.self) { _ in Tick() }.scope(.container)
        let inside = try test.resolve(Holder.self)
        #expect(inside !== original, "made again: Tick is answered by layer \"x\" now")
        test.popLayer()

        #expect(try test.resolve(Holder.self) === original, "the original Holder again, same identity\n\(test.trace.render())")
        let rendered = test.trace.render()
        #expect(rendered.contains("↻ made again: Tick is now answered by layer \"x\""), "\(rendered)")
        #expect(!rendered.contains("Provider<Dep> is now answered"), "\(rendered)")
        #expect(!rendered.contains("Lazy<Dep> is now answered"), "\(rendered)")
    }

    @Test func anOverrideOfWhatAProviderResolvesMakesItsHolderAgainUntilThePop() throws {
        final class OtherDep: Dep {}
        let test = TestContainer(base: makeBase())
        let original = try test.resolve(Holder.self)
        #expect(try !(original.deps() is FakeDep))

        test.pushLayer("y")
        test.override(Dep.self) { _ in OtherDep() }
        let inside = try test.resolve(Holder.self)
        #expect(inside !== original, "what its provider and lazy resolve is answered by layer \"y\" now")
        #expect(try inside.deps() is OtherDep)
        #expect(try inside.lazyDep.value is OtherDep)
        #expect(test.trace.render().contains("↻ made again: Dep is now answered by layer \"y\""), "\(test.trace.render())")
        test.popLayer()
        #expect(try test.resolve(Holder.self) === original)
    }
}

/// An async singleton made again because of an override says why in the trace, as a
/// synchronous one does.
@Suite("Made again, async")
struct AsyncMadeAgainTests {
    final class Network: Sendable {
        let label: String
        init(label: String) { self.label = label }
    }
    final class Repository: Sendable {
        let network: Network
        init(network: Network) { self.network = network }
    }

    @Test func anAsyncSingletonMadeAgainByAnOverrideSaysWhyInTheTrace() async throws {
        let base = Container()
        base.register(Network.self) { _ in Network(label: "live") }.scope(.container)
        base.registerAsync(Repository.self) { r in try await Repository(network: r.resolve()) }.scope(.container)
        let test = TestContainer(base: base)
        let original = try await test.async.resolve(Repository.self)
        test.pushLayer("offline")
        test.override(Network.self) { _ in Network(label: "offline") }
        let inside = try await test.async.resolve(Repository.self)
        #expect(inside !== original)
        #expect(inside.network.label == "offline")
        let rendered = test.trace.render()
        #expect(rendered.contains("↻ made again: Network is now answered by layer \"offline\""), "\(rendered)")
        test.popLayer()
        #expect(try await test.async.resolve(Repository.self) === original)
    }
}
