import Testing
import Wiring
import WiringTestSupport

// More examples of the DocC articles, verbatim inside tests.

@Suite struct DocumentationExamples {
    @Test func fakesStandInOnlyWhereNothingIsRegistered() throws {
        let container = Container()
        container.register(AnalyticsReporter.self) { r in try AnalyticsReporter(analytics: r.resolve()) }
        let test = TestContainer(base: container)

        test.fakes.register(Analytics.self) { NoopAnalytics() }
        test.fakes.isStrict = true          // verifyWiring() then reports every key that was faked

        #expect(try test.resolve(AnalyticsReporter.self).analytics is NoopAnalytics)
        #expect(test.fakes.fakedKeys == [ServiceKey(Analytics.self)])
        #expect(test.verifyWiring().problems.map(\.identifier) == ["faked"])
    }

    @Test func theGraphOfWhatWasResolved() throws {
        let test = TestContainer(base: makeAppContainer())

        _ = try test.resolve(Checkout.self)
        let graph = test.dependencyGraph()
        let picture = graph.mermaid          // or graph.dot, for Graphviz

        #expect(picture.hasPrefix("graph TD"))
        #expect(graph.nodes.map(\.description) == ["Cart", "Checkout", "Network", "Payments"])
    }
}
