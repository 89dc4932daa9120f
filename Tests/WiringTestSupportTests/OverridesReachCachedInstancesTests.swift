import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

/// An override is never ignored: a cached instance made with what an override replaces is made
/// again where the override is, and comes back when the override goes.
@Suite("Overrides reach cached instances")
struct OverridesReachCachedInstancesTests {
    final class Repository: Sendable {
        let network: any Network
        init(network: any Network) { self.network = network }
    }

    final class Screen: Sendable {
        let repository: Repository
        init(repository: Repository) { self.repository = repository }
    }

    final class Clock: Sendable {}

    /// Screen(Repository(Network)), all singletons, and an unrelated singleton Clock.
    func makeBase() -> Container {
        let base = Container()
        base.register((any Network).self) { _ in LiveNetwork() }.scope(.container)
        base.register(Repository.self) { r in try Repository(network: r.resolve()) }.scope(.container)
        base.register(Screen.self) { r in try Screen(repository: r.resolve()) }.scope(.container)
        base.register(Clock.self) { _ in Clock() }.scope(.container)
        return base
    }

    @Test func aSingletonCachedBeforeALayerIsMadeAgainInsideItAndComesBackAfter() throws {
        let test = TestContainer(base: makeBase())
        let original = try test.resolve(Repository.self)
        #expect(original.network.label == "live")

        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }
        let inside = try test.resolve(Repository.self)
        #expect(inside.network.label == "offline")
        #expect(inside !== original)
        #expect(try test.resolve(Repository.self) === inside)

        test.popLayer()
        #expect(try test.resolve(Repository.self) === original)
        #expect(test.warnings.isEmpty)
    }

    @Test func anOverrideAfterTheFactInTheSameLayerMakesItAgain() throws {
        let test = TestContainer(base: makeBase())
        let original = try test.resolve(Repository.self)
        test.override((any Network).self) { _ in FakeNetwork() }
        let again = try test.resolve(Repository.self)
        #expect(again !== original)
        #expect(again.network.label == "fake")
        #expect(test.warnings.isEmpty)
    }

    @Test func whatDependsOnTheOverrideAtAnyDepthIsMadeAgainAndNothingElse() throws {
        let test = TestContainer(base: makeBase())
        let screen = try test.resolve(Screen.self)
        let clock = try test.resolve(Clock.self)

        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }
        let inside = try test.resolve(Screen.self)
        #expect(inside !== screen)
        #expect(inside.repository !== screen.repository)
        #expect(inside.repository.network.label == "offline")
        #expect(try test.resolve(Clock.self) === clock)

        test.popLayer()
        #expect(try test.resolve(Screen.self) === screen)
        #expect(try test.resolve(Screen.self).repository === screen.repository)
    }

    @Test func theTraceSaysWhyAnInstanceWasMadeAgain() throws {
        let test = TestContainer(base: makeBase())
        _ = try test.resolve(Repository.self)
        test.clearTrace()
        test.pushLayer("offline")
        defer { test.popLayer() }
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }
        _ = try test.resolve(Repository.self)

        let rendered = test.trace.render()
        #expect(rendered.hasPrefix("Repository .container new #2\n"))
        #expect(rendered.contains(
            "↻ made again: Network is now answered by layer \"offline\" (WiringTestSupportTests/OverridesReachCachedInstancesTests.swift:"))
        #expect(rendered.contains("not as when the one kept in layer \"test\" was made"))
        #expect(rendered.hasSuffix("└── Network .container new #1 (override \"offline\")"))
    }

    @Test func withOverridesMakesItAgainInItsOwnLayerAndDropsItAfter() throws {
        let test = TestContainer(base: makeBase())
        let original = try test.resolve(Repository.self)
        try test.withOverrides({ $0.override((any Network).self) { _ in FakeNetwork(label: "bound") } }) {
            let inside = try test.resolve(Repository.self)
            #expect(inside.network.label == "bound")
        }
        #expect(try test.resolve(Repository.self) === original)
    }

    @Test(.timeLimit(.minutes(4)))
    func parallelWithOverridesEachGetTheirOwnRemadeInstance() async throws {
        let test = TestContainer(base: makeBase())
        let original = try test.resolve(Repository.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let label = "task \(index)"
                    try await test.withOverrides({ $0.override((any Network).self) { _ in FakeNetwork(label: label) } }) {
                        for _ in 0..<20 {
                            let repository = try test.resolve(Repository.self)
                            #expect(repository.network.label == label)
                            #expect(repository !== original)
                            await Task.yield()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try test.resolve(Repository.self) === original)
    }
}
