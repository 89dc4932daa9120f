import Testing
import Wiring
import WiringTestSupport
import WiringTestHelpers

// Behaviours only one other test caught: each test here reaches the same behaviour by another
// path, so that a regression of it fails two tests of different shapes.

/// Kept weakly by the app's container while something holds it.
private final class ImageCache: @unchecked Sendable {}

/// Made plainly; its hook fills in the cache from the container it captured.
private final class Feed: @unchecked Sendable {
    var cache: ImageCache?
}

extension Scope {
    fileprivate static let visit = Scope("thin-spot-visit")
}

/// One per registration and scope instance: identity is all a test compares.
private final class Token: @unchecked Sendable {}

/// The base's own registration, made with a token of the base's grandparent.
private final class Badge: @unchecked Sendable {
    let token: Token
    init(token: Token) { self.token = token }
}

/// A singleton of the app, overridden in a layer.
private final class Engine: @unchecked Sendable {}

/// Says who made it, so a test can tell which layer answered.
private final class Greeter: @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

/// Made by the base with a `Greeter`: what answers at depth.
private final class Welcome: @unchecked Sendable {
    let greeter: Greeter
    init(greeter: Greeter) { self.greeter = greeter }
}

@Suite("Thin spots of the test support: behaviours reached by a second path")
struct TestSupportThinSpotTests {
    /// A hook resolving from the base it captured an instance the base already keeps (weakly,
    /// here) still goes through a step of the running resolution, which notices the bypass:
    /// the container's shortcut for a kept instance is only for a call nothing runs around.
    @Test func aHookReadingAWeaklyKeptInstanceFromTheCapturedBaseIsAWarning() throws {
        let base = Container()
        base.register(ImageCache.self) { _ in ImageCache() }.scope(.weak)
        base.register(Feed.self, file: "App/Feed.swift", line: 4) { _ in Feed() }
            .initCompleted { [weak base] _, feed in feed.cache = try base!.resolve(ImageCache.self) }
        let held = try base.resolve(ImageCache.self)
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass"))

        let feed = try test.resolve(Feed.self)

        #expect(feed.cache === held)
        let warning = try #require(test.warnings.first)
        #expect(test.warnings.count == 1)
        #expect(warning.identifier == "resolver-bypass")
        #expect(warning.key == ServiceKey(Feed.self))
        #expect(warning.site == RegistrationSite(fileID: "App/Feed.swift", line: 4))
        #expect(warning.message == """
            the factory of Feed (or an initCompleted hook of it), registered at App/Feed.swift:4, resolved \
            ImageCache from a container it captured instead of through the resolver it receives, so this \
            TestContainer's overrides could not reach it
              fix: resolve through the resolver the factory receives, as in \
            `register(Feed.self) { r in … try r.resolve() … }`, not through a captured container
            """)
    }

    /// A test container's reset of a scope is the base's own reset: what it made for
    /// registrations of the base's parent and grandparent stays (theirs to reset), one instance
    /// per argument value included, even when made inside a pushed layer and at depth, below a
    /// registration of the base that is reset.
    @Test func resettingAScopeKeepsWhatTheTestContainerMadeForTheBasesAncestors() throws {
        let grandparent = Container()
        let parent = Container(parent: grandparent)
        let base = Container(parent: parent)
        grandparent.register(Token.self, name: "grandparent") { _ in Token() }.scope(.visit)
        parent.register(Token.self, name: "seat") { (_, _: Int) in Token() }.scope(.visit)
        base.register(Badge.self) { r in try Badge(token: r.resolve(Token.self, name: "grandparent")) }.scope(.visit)
        let test = TestContainer(base: base)
        test.pushLayer("signed in")
        defer { test.popLayer() }

        let badge = try test.resolve(Badge.self)
        let seats = try [1, 2].map { try test.resolve(Token.self, name: "seat", arguments: $0) }
        test.resetScope(.visit)
        let badgeAfter = try test.resolve(Badge.self)

        #expect(badgeAfter !== badge)
        #expect(badgeAfter.token === badge.token)
        #expect(try test.resolve(Token.self, name: "grandparent") === badge.token)
        #expect(try test.resolve(Token.self, name: "seat", arguments: 1) === seats[0])
        #expect(try test.resolve(Token.self, name: "seat", arguments: 2) === seats[1])
        #expect(seats[0] !== seats[1])
    }

    /// Popping the top layer frees what was made while it was on top, here by its own override
    /// (which keeps the replaced registration's `.container` scope), and only that: the
    /// instance the layer below made stays, and is what resolves once the top one is gone.
    @Test func poppingTheTopLayerFreesWhatItsOverrideMadeAndKeepsWhatTheLayerBelowMade() throws {
        let base = Container()
        base.register(Engine.self) { _ in Engine() }.scope(.container)
        let test = TestContainer(base: base)
        weak var lower: Engine?
        weak var upper: Engine?

        test.pushLayer("lower")
        lower = try test.resolve(Engine.self)
        test.pushLayer("upper").override(Engine.self) { _ in Engine() }
        upper = try test.resolve(Engine.self)
        #expect(upper != nil)
        #expect(try test.resolve(Engine.self) === upper)
        test.popLayer()

        #expect(upper == nil)
        #expect(lower != nil)
        #expect(try test.resolve(Engine.self) === lower)
        test.popLayer()
        #expect(lower == nil)
    }

    /// The order of a test container's layers, top first: the task's `withOverrides` layers
    /// (the innermost first), then the pushed ones (the last pushed first), then the root; each
    /// key overridden in all of them, and resolved at depth (inside a base factory).
    @Test func withOverridesLayersAnswerAbovePushedLayersWhichAnswerAboveTheRoot() throws {
        let base = Container()
        base.register(Greeter.self) { _ in Greeter("base") }
        base.register(Welcome.self) { r in try Welcome(greeter: r.resolve()) }
        let test = TestContainer(base: base)
        test.override(Greeter.self) { _ in Greeter("root") }
        test.pushLayer("first").override(Greeter.self) { _ in Greeter("first") }
        test.pushLayer("second").override(Greeter.self) { _ in Greeter("second") }
        func answer() throws -> String { try test.resolve(Welcome.self).greeter.label }

        let inTask = try test.withOverrides({ $0.override(Greeter.self) { _ in Greeter("outer task") } }) {
            let outer = try answer()
            let inner = try test.withOverrides({ $0.override(Greeter.self) { _ in Greeter("inner task") } }) {
                try answer()
            }
            return [outer, inner, try answer()]
        }
        let pushed = try answer()
        test.popLayer()
        let afterOnePop = try answer()
        test.popLayer()

        #expect(inTask == ["outer task", "inner task", "outer task"])
        #expect(pushed == "second")
        #expect(afterOnePop == "first")
        #expect(try answer() == "root")
    }
}

/// The test container a factory reaches, set once it exists.
private final class TestContainerBox: @unchecked Sendable {
    var test: TestContainer?
}

@Suite("A resolution through a test container sees the layers it began with")
struct LayersSeenByOneResolutionTests {
    @Test func aLayerPushedWhileAResolutionRunsAnswersFromTheNextResolve() throws {
        // The label is registered in the base's parent: looked up through the test container,
        // not read in the registry the resolution began with.
        let root = Container()
        root.register(NamedLabel.self) { _ in NamedLabel("app") }
        let base = Container(parent: root)
        let box = TestContainerBox()
        base.register(NamedLabelPair.self) { r in
            let first = try r.resolve(NamedLabel.self)
            box.test?.pushLayer("late").override(NamedLabel.self) { _ in NamedLabel("late") }
            return NamedLabelPair(first, try r.resolve(NamedLabel.self))
        }
        let test = TestContainer(base: base)
        box.test = test

        let pair = try test.resolve(NamedLabelPair.self)

        #expect(pair.first.text == "app")
        #expect(pair.second.text == "app")
        #expect(try test.resolve(NamedLabel.self).text == "late")
        test.popLayer()
        #expect(try test.resolve(NamedLabel.self).text == "app")
    }
}
