import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Resets through a test container reset what the same reset on its base would; app code that
// resets the container it captured is a finding; app code that resets through what it resolved
// (`ScopeResetter`) resets the test container in a test and the app's container in the app.

extension Scope {
    fileprivate static let userSession = Scope("user-session")
}

private final class UserSession: Sendable {}
private final class Preferences: Sendable {}

/// Logs out by resetting the session scope of whatever resolved it.
private final class SessionController: Sendable {
    let scopes: ScopeResetter

    init(scopes: ScopeResetter) {
        self.scopes = scopes
    }

    func logOut() {
        scopes.reset(.userSession)
    }
}

/// The app: the parent keeps the preferences, the child feature container the user's session.
private func makeFeature() -> (parent: Container, child: Container) {
    let parent = Container()
    parent.register(Preferences.self) { _ in Preferences() }.scope(.userSession)
    let child = Container(parent: parent)
    child.register(UserSession.self) { _ in UserSession() }.scope(.userSession)
    child.register(SessionController.self) { r in SessionController(scopes: try r.resolve(ScopeResetter.self)) }
    return (parent, child)
}

@Suite struct ResetTests {
    @Test func aResetThroughATestContainerOverAChildLeavesWhatTheParentKeepsAsTheAppsDoes() throws {
        let app = makeFeature()
        let appPreferences = try app.child.resolve(Preferences.self)
        let appSession = try app.child.resolve(UserSession.self)
        app.child.resetScope(.userSession)
        #expect(try app.child.resolve(Preferences.self) === appPreferences)    // the parent's to reset
        #expect(try app.child.resolve(UserSession.self) !== appSession)

        let test = TestContainer(base: makeFeature().child)
        let preferences = try test.resolve(Preferences.self)
        let session = try test.resolve(UserSession.self)
        test.resetScope(.userSession)
        #expect(try test.resolve(Preferences.self) === preferences)
        #expect(try test.resolve(UserSession.self) !== session)
    }

    @Test func aResetThroughATestContainerOverTheParentResetsTheParentsInstances() throws {
        let test = TestContainer(base: makeFeature().parent)
        let preferences = try test.resolve(Preferences.self)
        test.resetScope(.userSession)
        #expect(try test.resolve(Preferences.self) !== preferences)
    }

    @Test func appCodeThatResetsThroughWhatItResolvedResetsTheTestContainerInATest() throws {
        let test = TestContainer(base: makeFeature().child)
        let session = try test.resolve(UserSession.self)
        try test.resolve(SessionController.self).logOut()
        #expect(try test.resolve(UserSession.self) !== session)
        #expect(test.warnings.isEmpty)

        // The same code resets the app's container in the app.
        let app = makeFeature()
        let appSession = try app.child.resolve(UserSession.self)
        try app.child.resolve(SessionController.self).logOut()
        #expect(try app.child.resolve(UserSession.self) !== appSession)
    }

    @Test func aResetOfTheWrappedContainerIsAFindingAndResetsNothingOfTheTests() throws {
        let app = makeFeature()
        let test = TestContainer(base: app.child)
        test.wiringFindings(.allow("reset-of-wrapped-container"))
        let session = try test.resolve(UserSession.self)

        let line = #line + 1
        app.child.resetScope(.userSession)                      // app code holding the container it was built with

        #expect(try test.resolve(UserSession.self) === session)
        #expect(test.warnings.map(\.identifier) == ["reset-of-wrapped-container"])
        #expect(test.warnings.first?.description == """
            reset-of-wrapped-container: resetScope(Scope("user-session")) at WiringTestSupportTests/ResetTests.swift:\(line) reset a \
            Container a TestContainer wraps: the test container keeps its own instances, so the reset reached none of \
            what the test resolved through it (and none of another test's)
              fix: reset through what the code resolved: have it resolve `ScopeResetter` (`let scopes = try \
            r.resolve(ScopeResetter.self)`) and call `scopes.reset(Scope("user-session"))`, which resets the test container in a \
            test and the app's container in the app; or call `test.resetScope(Scope("user-session"))` in the test
            """)
        // A parent of the base counts too.
        app.parent.resetScope(.userSession)
        #expect(test.warnings.count == 2)
    }

    @Test func aResetOfTheWrappedContainerFailsTheRunningTest() throws {
        let app = makeFeature()
        let test = TestContainer(base: app.child)
        withKnownIssue {
            app.child.resetScope(.userSession)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("reset-of-wrapped-container: resetScope(Scope(\"user-session\"))")
        }
        withExtendedLifetime(test) {}
    }

    @Test func aResetOfAContainerNoTestContainerWrapsIsNoFinding() throws {
        let test = TestContainer(base: makeFeature().child)
        makeFeature().child.resetScope(.userSession)
        #expect(test.warnings.isEmpty)
    }
}
