import Testing
import Wiring
import WiringTestSupport

// Behaviours only one other test caught: each test here reaches the same behaviour by another
// path, so that a regression of it fails two tests of different shapes.

/// Kept weakly by the app's container while something holds it.
private final class ImageCache: @unchecked Sendable {}

/// Made plainly; its hook fills in the cache from the container it captured.
private final class Feed: @unchecked Sendable {
    var cache: ImageCache?
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
}
