import Testing
import Wiring
import WiringTestSupport

/// A kept instance found cached by a dependent is still made with what it was made with: the
/// dependent inherits its dependencies, so an override of one of them reaches the dependent
/// however the dependent's resolve found them.
@Suite("Kept instances inherit what their cached dependencies were made with")
struct CachedDependencyTests {
    final class Network: Sendable {
        let label: String
        init(label: String) { self.label = label }
    }

    final class Service: Sendable {
        let network: Network
        init(network: Network) { self.network = network }
    }

    final class Repo: Sendable {
        let service: Service
        init(service: Service) { self.service = service }
    }

    func makeBase() -> Container {
        let base = Container()
        base.register(Network.self) { _ in Network(label: "live") }
        base.register(Service.self) { r in try Service(network: r.resolve()) }.scope(.container)
        base.register(Repo.self) { r in try Repo(service: r.resolve()) }.scope(.container)
        return base
    }

    @Test func aDependentMadeOverACachedDependencyIsMadeAgainWhenTheDependencysDependencyIsOverridden() throws {
        let test = TestContainer(base: makeBase())
        let service = try test.resolve(Service.self)
        let repo = try test.resolve(Repo.self)  // finds `service` cached
        #expect(repo.service === service)

        test.override(Network.self) { _ in Network(label: "double") }
        let again = try test.resolve(Repo.self)
        #expect(again.service.network.label == "double")
        #expect(again !== repo)
        #expect(try test.resolve(Service.self) === again.service)
    }

    @Test func theSameHoldsInAPushedLayerAndComesBackAfter() throws {
        let test = TestContainer(base: makeBase())
        _ = try test.resolve(Service.self)
        let repo = try test.resolve(Repo.self)

        test.pushLayer("offline")
        test.override(Network.self) { _ in Network(label: "offline") }
        #expect(try test.resolve(Repo.self).service.network.label == "offline")
        test.popLayer()
        #expect(try test.resolve(Repo.self) === repo)
        #expect(repo.service.network.label == "live")
    }

    @Test func aDependentOfAnUnrelatedCachedDependencyStays() throws {
        let base = makeBase()
        final class Clock: Sendable {}
        final class Screen: Sendable {
            let clock: Clock
            init(clock: Clock) { self.clock = clock }
        }
        base.register(Clock.self) { _ in Clock() }.scope(.container)
        base.register(Screen.self) { r in try Screen(clock: r.resolve()) }.scope(.container)
        let test = TestContainer(base: base)
        _ = try test.resolve(Clock.self)
        let screen = try test.resolve(Screen.self)
        test.override(Network.self) { _ in Network(label: "double") }
        #expect(try test.resolve(Screen.self) === screen)
    }
}

/// The numbers a trace shows after `clearTrace()`: from #1, in the order its instances were made
/// (a kept one made before the clear comes first), whatever ran before.
@Suite("Trace numbers after clearTrace")
struct TraceNumbersAfterClearTests {
    final class Leaf: Sendable {}
    final class Node: Sendable {
        let left: Leaf
        let right: Leaf
        init(left: Leaf, right: Leaf) {
            self.left = left
            self.right = right
        }
    }

    func makeTest() -> TestContainer {
        let base = Container()
        base.register(Leaf.self) { _ in Leaf() }
        base.register(Leaf.self, name: "kept") { _ in Leaf() }.scope(.container)
        base.register(Node.self) { r in try Node(left: r.resolve(), right: r.resolve(Leaf.self, name: "kept")) }
        return TestContainer(base: base)
    }

    @Test func aClearedTraceStartsAgainAtOneEveryTime() throws {
        let test = makeTest()
        _ = try test.resolve(Node.self)
        _ = try test.resolve(Node.self)
        for _ in 0..<3 {
            test.clearTrace()
            _ = try test.resolve(Node.self)
            #expect(test.trace.render() == """
                Node .graph new #3
                ├── Leaf .graph new #2
                └── Leaf (name: "kept") .container cached #1
                """)
        }
    }

    @Test func anInstanceMadeBeforeTheClearKeepsOneNumberAfterIt() throws {
        let test = makeTest()
        let kept = try test.resolve(Leaf.self, name: "kept")
        test.clearTrace()
        #expect(try test.resolve(Leaf.self, name: "kept") === kept)
        _ = try test.resolve(Node.self)
        #expect(test.trace.render() == """
            Leaf (name: "kept") .container cached #1
            Node .graph new #3
            ├── Leaf .graph new #2
            └── Leaf (name: "kept") .container cached #1
            """)
    }
}
