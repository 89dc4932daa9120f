import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

/// `explain` says who answers a key, what it shadows and what is kept; or, when nothing
/// answers, the near misses and the fix. Deterministic text: sites and instance numbers only.
@Suite struct ExplainTests {
    let file = "WiringTestSupportTests/ExplainTests.swift"

    func makeBase() -> Container {
        let base = Container()
        base.register((any Network).self) { _ in LiveNetwork() }.scope(.container)
        base.register(Payments.self) { r in try Payments(network: r.resolve()) }.scope(.container)
        base.register((any Logger).self, name: "console") { _ in ConsoleLogger() }
        base.register((any Logger).self, name: "file") { _ in ConsoleLogger() }
        return base
    }

    @Test func anOverrideAnswersAndShadowsWhatIsBelowIt() throws {
        let test = TestContainer(base: makeBase())
        test.override((any Network).self) { _ in FakeNetwork() }
        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }.scope(.transient)
        let line = #line - 1
        defer { test.popLayer() }

        let explanation = test.explain((any Network).self)
        let lines = explanation.description.components(separatedBy: "\n")
        #expect(lines.count == 4)
        #expect(lines[0] == "Network: answered by the override in layer \"offline\" at \(file):\(line) (.transient)")
        #expect(lines[1] == "  shadows the override in layer \"test\" at \(file):\(line - 2) (.container)")
        #expect(lines[2].hasPrefix("  shadows the registration in the base at \(file):"))
        #expect(lines[3] == "  instance: .transient makes a new one on every resolve")
        #expect(explanation.answer?.scope == .transient)
        #expect(explanation.shadowed.count == 2)
    }

    @Test func aKeptInstanceIsNamedByItsNumberAndLayer() throws {
        let test = TestContainer(base: makeBase())
        #expect(test.explain(Payments.self).instance
            == "none kept yet; the next resolve makes one and keeps it in layer \"test\"")
        _ = try test.resolve(Payments.self)
        #expect(test.explain(Payments.self).instance == "#2, kept in layer \"test\"")
    }

    @Test func aStaleInstanceIsExplainedWithTheOverrideThatMadeItStale() throws {
        let test = TestContainer(base: makeBase())
        _ = try test.resolve(Payments.self)
        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }
        let line = #line - 1
        defer { test.popLayer() }

        #expect(test.explain(Payments.self).instance == """
            #2, kept in layer "test", is not handed out: Network is now answered by layer "offline" (\(file):\(line)); \
            the next resolve makes it again in layer "offline"
            """)
    }

    @Test func whenNothingAnswersItListsTheNearMissesAndSuggestsAName() {
        let test = TestContainer(base: makeBase())
        let explanation = test.explain((any Logger).self, name: "consle")
        let lines = explanation.description.components(separatedBy: "\n")

        #expect(explanation.answer == nil)
        #expect(lines[0] == "Logger (name: \"consle\"): nothing answers it (no layer, the base, its parents, the fakes nor an implicit registration)")
        #expect(lines[1].hasPrefix("  registered: Logger (name: \"console\") at \(file):"))
        #expect(lines[2].hasPrefix("  registered: Logger (name: \"file\") at \(file):"))
        #expect(lines[3].hasPrefix("  fix: did you mean \"console\"?"))
    }

    @Test func aFakeAndAnImplicitRegistrationAnswerWhereNothingIsRegistered() {
        final class Clock: Injectable {
            init(resolver: any Resolver) throws {}
        }
        let test = TestContainer(base: makeBase())
        test.fakes.register((any Analytics).self) { NoopAnalytics() }

        #expect(test.explain((any Analytics).self).answer?.origin == "the fake")
        #expect(test.explain(Clock.self).answer?.origin == "the implicit registration")
        #expect(test.explain(Clock.self).answer?.site == nil)
    }

    @Test func aKeyWithRuntimeArgumentsIsExplainedAsAResolveWithThoseArgumentsWouldFindIt() throws {
        final class Greeter {
            let greeting: String
            init(greeting: String) { self.greeting = greeting }
        }
        let base = makeBase()
        base.register(Greeter.self) { (_, name: String) in Greeter(greeting: "hello \(name)") }
        let registeredLine = #line - 1
        let test = TestContainer(base: base)
        test.override(Greeter.self) { (_, name: String) in Greeter(greeting: "fake \(name)") }
        let overrideLine = #line - 1
        let key = ServiceKey(Greeter.self, arguments: String.self)

        let explanation = test.explain(Greeter.self, arguments: String.self)
        #expect(explanation.key == key)
        #expect(explanation.description.components(separatedBy: "\n") == [
            "Greeter (arguments: String): answered by the override in layer \"test\" at \(file):\(overrideLine) (.transient)",
            "  shadows the registration in the base at \(file):\(registeredLine) (.transient)",
            "  instance: .transient makes a new one on every resolve",
        ])

        // Without its arguments, or with others, nothing answers; the near misses name what a
        // resolve with the arguments would use (the override), and the arguments to pass.
        for missed in [test.explain(Greeter.self), test.explain(Greeter.self, arguments: Int.self)] {
            #expect(missed.answer == nil, "\(missed.key)")
            #expect(missed.nearMisses.count == 2, "\(missed)")
            #expect(missed.nearMisses.first == "registered: Greeter (arguments: String) at \(file):\(overrideLine)")
            #expect(
                missed.nearMisses.last?.hasPrefix("fix: Greeter is registered to take the runtime arguments (String)")
                    == true, "\(missed)")
        }
        // Explaining resolved nothing.
        #expect(test.trace.roots.isEmpty)
    }

    @Test func explainingResolvesNothing() {
        let test = TestContainer(base: makeBase())
        _ = test.explain(Payments.self)
        #expect(test.resolutionCount(of: Payments.self) == 0)
        #expect(test.trace.roots.isEmpty)
    }
}
