import Testing
import Wiring
import WiringTestSupport

// The README's "An override is never ignored", verbatim inside a test.

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

    /// The trace the README shows, from the test above.
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
