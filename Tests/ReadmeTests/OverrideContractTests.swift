import Testing
import Wiring
import WiringTestSupport

// The design's contract for overrides, doubles, warnings and explanations, exactly as written there.

/// A spy as tests write them: mutable, unlocked, not `Sendable`.
final class SpyNetwork: Network {
    var requests: [String] = []
}

final class Repository {
    let network: any Network
    init(network: any Network) { self.network = network }
}

@Suite struct OverrideContract {
    func makeBase() -> Container {
        let container = Container()
        container.register(Network.self) { _ in LiveNetwork() }.scope(.container)
        container.register(Repository.self) { r in try Repository(network: r.resolve()) }.scope(.container)
        return container
    }

    @Test func theContractCompilesAndBehavesAsWritten() throws {
        let test = TestContainer(base: makeBase())

        let spy = SpyNetwork()                                   // a non-Sendable class the test keeps
        test.override(Network.self, instance: spy)               // a ready double
        #expect(try test.resolve(Network.self) === spy)
        test.override(Network.self) { _ in spy }                 // a factory may capture it (no annotation)
        #expect(try test.resolve(Network.self) === spy)

        let base = TestContainer(base: makeBase())
        base.wiringFindings(.allow("unbalanced-pop"))    // the extra pop below is on purpose
        _ = try base.resolve(Repository.self)                     // .container, cached with the real Network
        let original = try base.resolve(Repository.self)
        base.pushLayer("offline"); base.override(Network.self) { _ in OfflineNetwork() }
        #expect(try base.resolve(Repository.self).network is OfflineNetwork)   // Repository made again in "offline"
        base.popLayer()                                          // the original Repository again, same identity
        #expect(try base.resolve(Repository.self) === original)

        #expect(base.warnings.isEmpty)                           // each: identifier + message
        base.popLayer()
        #expect(base.warnings.map(\.identifier) == ["unbalanced-pop"])

        let explanation = test.explain(Network.self)             // CustomStringConvertible: who answers, why, what it shadows
        #expect(explanation.description.hasPrefix("Network: answered by the override in layer \"test\" at ReadmeTests/OverrideContractTests.swift:"))
        #expect(explanation.shadowed.map(\.origin) == ["the registration in the base"])

        let manifest = test.wiringManifest()                     // every registration, scope, dependencies, problems
        #expect(manifest.render() == """
            Wiring manifest: 2 registrations, 0 problems, 0 unchecked

            Network [.container] at ReadmeTests/OverrideContractTests.swift (override "test")
            Repository [.container] at ReadmeTests/OverrideContractTests.swift
              needs Network
            """)                                                   // deterministic; no line numbers, no addresses
    }
}
