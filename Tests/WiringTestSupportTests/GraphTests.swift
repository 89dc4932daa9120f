import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Fixtures of this file only: `G` keeps them apart from the target's other fixtures.

private final class GNetwork {}
private final class GCart {
    init(network: GNetwork) {}
}
private final class GCheckout {
    init(cart: GCart, backup: GNetwork) {}
}
private final class GClock {}
private final class GReport {
    init(clock: GClock) {}
}
private final class GTimer {
    init(clocks: Provider<GClock>) {}
}

/// A checkout built through a test container, and a report that is autowired but never resolved.
private func makeShop() throws -> TestContainer {
    let container = Container()
    container.register(GNetwork.self) { _ in GNetwork() }.scope(.container)
    container.register(GNetwork.self, name: "backup") { _ in GNetwork() }
    container.autoregister(GCart.self, initializer: GCart.init)
    container.register(GCheckout.self) { r in try GCheckout(cart: r.resolve(), backup: r.resolve(name: "backup")) }
    container.autoregister(GReport.self, initializer: GReport.init)
    let test = TestContainer(base: container)
    _ = try test.resolve(GCheckout.self)
    return test
}

@Suite struct Graph {
    @Test func dotDrawsResolvedStepsSolidAndDeclaredOnlyOnesDashed() throws {
        let graph = try makeShop().dependencyGraph()

        #expect(graph.dot == """
            digraph Wiring {
                n1 [label="GCart"];
                n2 [label="GCheckout"];
                n3 [label="GClock"];
                n4 [label="GNetwork"];
                n5 [label="GNetwork (name: \\"backup\\")"];
                n6 [label="GReport"];
                n1 -> n4;
                n2 -> n1;
                n2 -> n5;
                n6 -> n3 [style=dashed];
            }
            """)
    }

    @Test func mermaidDrawsTheSameGraph() throws {
        let graph = try makeShop().dependencyGraph()

        #expect(graph.mermaid == """
            graph TD
                n1["GCart"]
                n2["GCheckout"]
                n3["GClock"]
                n4["GNetwork"]
                n5["GNetwork (name: #quot;backup#quot;)"]
                n6["GReport"]
                n1 --> n4
                n2 --> n1
                n2 --> n5
                n6 -.-> n3
            """)
    }

    @Test func nodesAndEdgesAreSortedAndResolvedWinsOverDeclared() throws {
        let graph = try makeShop().dependencyGraph()

        #expect(graph.nodes.map(\.description) == [
            "GCart", "GCheckout", "GClock", "GNetwork", "GNetwork (name: \"backup\")", "GReport",
        ])
        // GCart -> GNetwork is both declared and resolved: one edge, drawn as resolved.
        #expect(graph.edges.map { "\($0.from) -> \($0.to) \($0.isResolved)" } == [
            "GCart -> GNetwork true",
            "GCheckout -> GCart true",
            "GCheckout -> GNetwork (name: \"backup\") true",
            "GReport -> GClock false",
        ])
    }

    @Test func theOrderOfResolutionsChangesNothing() throws {
        let container = Container()
        container.register(GNetwork.self) { _ in GNetwork() }
        container.autoregister(GCart.self, initializer: GCart.init)
        container.register(GClock.self) { _ in GClock() }
        container.autoregister(GReport.self, initializer: GReport.init)
        let first = TestContainer(base: container)
        _ = try first.resolve(GCart.self)
        _ = try first.resolve(GReport.self)
        let second = TestContainer(base: container)
        _ = try second.resolve(GReport.self)
        _ = try second.resolve(GCart.self)

        #expect(first.dependencyGraph().dot == second.dependencyGraph().dot)
        #expect(first.dependencyGraph().mermaid == second.dependencyGraph().mermaid)
    }

    /// Generic labels are escaped; a `Provider<T>` has a dashed edge to the `T` it resolves
    /// later, so that `T` does not look disconnected.
    @Test func genericLabelsAreEscapedForMermaidAndAProviderPointsAtWhatItResolves() throws {
        let container = Container()
        container.register(GClock.self) { _ in GClock() }
        container.register(GTimer.self) { r in try GTimer(clocks: r.resolve()) }
        let test = TestContainer(base: container)
        _ = try test.resolve(GTimer.self)

        let graph = test.dependencyGraph()

        #expect(graph.mermaid == """
            graph TD
                n1["GClock"]
                n2["GTimer"]
                n3["Provider#lt;GClock#gt;"]
                n2 --> n3
                n3 -.-> n1
            """)
        #expect(graph.dot == """
            digraph Wiring {
                n1 [label="GClock"];
                n2 [label="GTimer"];
                n3 [label="Provider<GClock>"];
                n2 -> n3;
                n3 -> n1 [style=dashed];
            }
            """)
    }

    @Test func aLazyResolvedWithItsArgumentsPointsAtTheRegistrationTakingThem() throws {
        final class Greeter {}
        final class Screen: @unchecked Sendable {
            let greeter: Lazy<Greeter>
            init(greeter: Lazy<Greeter>) { self.greeter = greeter }
        }
        let container = Container()
        container.register(Greeter.self) { (_, _: String) in Greeter() }
        container.register(Screen.self) { r in try Screen(greeter: r.resolve(Lazy<Greeter>.self, arguments: "Ada")) }
        let test = TestContainer(base: container)
        _ = try test.resolve(Screen.self)

        let graph = test.dependencyGraph()
        let later = try #require(graph.edges.first { !$0.isResolved })
        #expect(later.from == ServiceKey(Lazy<Greeter>.self, arguments: String.self))
        #expect(later.to == ServiceKey(Greeter.self, arguments: String.self))
    }

    @Test func anEmptyTestContainerDrawsAnEmptyGraph() {
        let graph = TestContainer(base: Container()).dependencyGraph()

        #expect(graph.dot == "digraph Wiring {\n}")
        #expect(graph.mermaid == "graph TD")
    }
}
