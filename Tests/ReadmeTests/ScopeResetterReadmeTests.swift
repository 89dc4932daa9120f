import Testing
import Wiring
import WiringTestSupport

/// Logs out by resetting the session scope of whatever resolved it.
final class SessionController {
    let scopes: ScopeResetter

    init(scopes: ScopeResetter) {
        self.scopes = scopes
    }

    func logOut() {
        scopes.reset(.session)
    }
}

/// The Scopes article's `ScopeResetter` example: the same code resets the app's container and a test's.
@Suite struct ScopeResetterReadme {
    @Test func appCodeResetsWhatResolvedIt() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.session)
        container.register(SessionController.self) { r in SessionController(scopes: try r.resolve(ScopeResetter.self)) }

        let session = try container.resolve(Session.self)
        try container.resolve(SessionController.self).logOut()
        #expect(try container.resolve(Session.self) !== session)

        let test = TestContainer(base: container)
        let testSession = try test.resolve(Session.self)
        try test.resolve(SessionController.self).logOut()
        #expect(try test.resolve(Session.self) !== testSession)
        #expect(test.warnings.isEmpty)
    }
}
