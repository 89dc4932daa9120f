import Testing
import Wiring
import WiringTestSupport

// "An override is never ignored" (LayersAndParallelTests article), verbatim inside a test.

@Suite struct OverridesReachCachedReadme {
    @Test func aCachedSingletonIsMadeAgainInsideTheLayerAndComesBackAfter() throws {
        let test = TestContainer(base: makeNotesContainer())
        let original = try test.resolve(NotesRepository.self)

        _ = try test.resolve(NotesRepository.self)                 // .container, cached with the real NotesNetwork
        test.pushLayer("offline"); test.override(NotesNetwork.self) { _ in OfflineNotesNetwork() }
        let offline = try test.resolve(NotesRepository.self)       // made again in "offline", with OfflineNotesNetwork
        test.popLayer()                                            // the original NotesRepository again, same identity

        #expect(offline.network is OfflineNotesNetwork)
        #expect(try test.resolve(NotesRepository.self) === original)
        #expect(test.trace.render() == Self.trace)
    }

    /// The trace the article shows, from the test above.
    static let trace = """
        NotesRepository .container new #2
        └── NotesNetwork .container new #1
        NotesRepository .container cached #2
        NotesRepository .container new #4
        │   ↻ made again: NotesNetwork is now answered by layer "offline" (ReadmeTests/OverridesReachCachedReadmeTests.swift:13), not as when the one kept in layer "test" was made
        └── NotesNetwork .container new #3 (override "offline")
        NotesRepository .container cached #2
        """
}

// MARK: Fixtures

protocol NotesNetwork: AnyObject, Sendable {}
final class LiveNotesNetwork: NotesNetwork {}
final class OfflineNotesNetwork: NotesNetwork {}

final class NotesRepository: Sendable {
    let network: any NotesNetwork
    init(network: any NotesNetwork) { self.network = network }
}

func makeNotesContainer() -> Container {
    let container = Container()
    container.register(NotesNetwork.self) { _ in LiveNotesNetwork() }.scope(.container)
    container.register(NotesRepository.self) { r in try NotesRepository(network: r.resolve()) }.scope(.container)
    return container
}

@Suite struct ExplainReadme {
    @Test func explainSaysWhoAnswersWhatItShadowsAndWhatIsKept() throws {
        let test = TestContainer(base: makeNotesContainer())
        _ = try test.resolve(NotesRepository.self)
        test.pushLayer("offline")
        test.override(NotesNetwork.self) { _ in OfflineNotesNetwork() }
        defer { test.popLayer() }

        let explanation = test.explain(NotesRepository.self)        // who answers, what it shadows, what is kept
        print(explanation)
        print(test.explain(NotesNetwork.self))

        #expect(explanation.description + "\n" + test.explain(NotesNetwork.self).description == Self.output)
    }

    /// What the article shows.
    static let output = """
        NotesRepository: answered by the registration in the base at ReadmeTests/OverridesReachCachedReadmeTests.swift:48 (.container)
          instance: #2, kept in layer "test", is not handed out: NotesNetwork is now answered by layer "offline" (ReadmeTests/OverridesReachCachedReadmeTests.swift:57); the next resolve makes it again in layer "offline"
        NotesNetwork: answered by the override in layer "offline" at ReadmeTests/OverridesReachCachedReadmeTests.swift:57 (.container)
          shadows the registration in the base at ReadmeTests/OverridesReachCachedReadmeTests.swift:47 (.container)
          instance: none kept yet; the next resolve makes one and keeps it in layer "offline"
        """
}
