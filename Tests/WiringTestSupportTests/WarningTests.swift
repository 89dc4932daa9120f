import Testing
import Wiring
import WiringTestSupport

// `test.warnings`: what the test container noticed, each with a stable identifier and a message
// naming the types, the site and the fix; in the order noticed, each once.

/// Syncs through a network client; registered below so that its factory bypasses its resolver.
final class Sync {
    let client: any NetworkClient
    var backup: (any NetworkClient)?
    init(client: any NetworkClient) { self.client = client }
}

/// An app whose `Sync` factory resolves from the container it captured, not through `r`.
func makeBypassingContainer() -> Container {
    let container = Container()
    container.register(NetworkClient.self) { _ in LiveNetworkClient() }.scope(.container)
    container.register(Sync.self, file: "App/Setup.swift", line: 12) { [weak container] _ in
        try Sync(client: container!.resolve())
    }
    return container
}

/// Resolves from a container of its own in its initializer, instead of through its resolver.
final class BypassingUploader: Injectable {
    static let elsewhere: Container = {
        let container = Container()
        container.register(NetworkClient.self) { _ in LiveNetworkClient() }
        return container
    }()

    let client: any NetworkClient
    init(resolver: any Resolver) throws {
        client = try Self.elsewhere.resolve()
    }
}

@Suite struct WarningTests {
    // MARK: unbalanced-pop

    @Test func aPopWithNoLayerPushedIsAWarning() throws {
        let test = TestContainer(base: makeUploadContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        let line = #line + 1
        let popped = test.popLayer()

        #expect(popped == nil)
        let site = RegistrationSite(fileID: #fileID, line: line)
        let warning = try #require(test.warnings.first)
        #expect(test.warnings.count == 1)
        #expect(warning.identifier == "unbalanced-pop")
        #expect(warning.message == """
            popLayer() at \(site) found no layer pushed on this TestContainer, so it did nothing
              fix: match every popLayer() with a pushLayer(_:) on the same test container; prefer \
            `test.withOverrides({ layer in … }) { … }`, which removes its layer itself
            """)
        #expect(warning.key == nil)
        #expect(warning.site == site)
        #expect(warning.description == "unbalanced-pop: " + warning.message)
    }

    @Test func balancedPushesAndPopsAreNotWarnings() throws {
        let test = TestContainer(base: makeUploadContainer())
        test.pushLayer("a")
        test.pushLayer("b")
        test.popLayer()
        test.popLayer()
        try test.withOverrides({ layer in layer.override(NetworkClient.self, instance: SpyNetwork()) }) {
            _ = try test.resolve(Uploader.self)
        }
        #expect(test.warnings.isEmpty)
    }

    /// Each `wiringFindings(_:)` allows more: the second keeps what the first allowed.
    @Test func aSecondAllowanceKeepsWhatTheFirstAllowed() {
        let test = TestContainer(base: makeUploadContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        test.wiringFindings(.allow("override-of-unregistered"))
        test.popLayer()
        #expect(test.warnings.map(\.identifier) == ["unbalanced-pop"])
    }

    @Test func theSamePopTwiceIsOneWarningAndTwoPopsAreTwo() {
        let test = TestContainer(base: makeUploadContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        let first = #line + 1
        for _ in 0..<3 { test.popLayer() }
        let second = #line + 1
        test.popLayer()

        #expect(test.warnings.map(\.identifier) == ["unbalanced-pop", "unbalanced-pop"])
        #expect(test.warnings.map(\.site?.line) == [first, second])
    }

    // MARK: resolver-bypass

    @Test func aFactoryResolvingFromACapturedContainerIsAWarning() throws {
        let test = TestContainer(base: makeBypassingContainer())
        test.wiringFindings(.allow("resolver-bypass"))
        let spy = SpyNetwork()
        let overrideLine = #line + 1
        test.override(NetworkClient.self, instance: spy)

        let sync = try test.resolve(Sync.self)

        #expect(sync.client is LiveNetworkClient)     // what the warning explains
        let warning = try #require(test.warnings.first)
        #expect(test.warnings.count == 1)
        #expect(warning.identifier == "resolver-bypass")
        #expect(warning.message == """
            the factory of Sync (or an initCompleted hook of it), registered at App/Setup.swift:12, resolved \
            NetworkClient from a container it captured instead of through the resolver it receives, so it \
            missed the override of NetworkClient in layer "test" at \(#fileID):\(overrideLine)
              fix: resolve through the resolver the factory receives, as in \
            `register(Sync.self) { r in … try r.resolve() … }`, not through a captured container
            """)
        #expect(warning.key == ServiceKey(Sync.self))
        #expect(warning.site == RegistrationSite(fileID: "App/Setup.swift", line: 12))
    }

    @Test func aFactoryResolvingAnInstanceTheCapturedContainerAlreadyKeepsIsAWarningToo() throws {
        let base = makeBypassingContainer()
        let kept = try base.resolve(NetworkClient.self)
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass"))
        test.override(NetworkClient.self, instance: SpyNetwork())

        let sync = try test.resolve(Sync.self)

        #expect(sync.client === kept)
        #expect(test.warnings.map(\.identifier) == ["resolver-bypass"])
        #expect(test.warnings.first?.message.contains("resolved NetworkClient from a container it captured") == true)
    }

    @Test func theFixNamesTheRegistrationAsItIsWritten() throws {
        let base = Container()
        base.register(NetworkClient.self) { _ in LiveNetworkClient() }
        base.register(Sync.self, name: "nightly") { [weak base] (_, hour: Int) in
            try Sync(client: base!.resolve())
        }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass"))

        _ = try test.resolve(Sync.self, name: "nightly", arguments: 3)

        let warning = try #require(test.warnings.first)
        #expect(warning.key == ServiceKey(Sync.self, name: "nightly", arguments: Int.self))
        #expect(warning.message.hasPrefix("the factory of Sync (name: \"nightly\", arguments: Int) (or an initCompleted hook of it), registered at WiringTestSupportTests/WarningTests.swift:"))
        #expect(warning.message.hasSuffix(
            "fix: resolve through the resolver the factory receives, as in "
                + "`register(Sync.self, name: \"nightly\") { (r, …) in … try r.resolve() … }`, not through a captured container"))
    }

    @Test func aHookResolvingFromACapturedContainerIsAWarning() throws {
        let base = Container()
        base.register(NetworkClient.self) { _ in LiveNetworkClient() }
        base.register(Sync.self) { r in try Sync(client: r.resolve()) }
            .initCompleted { [weak base] _, sync in sync.backup = try base!.resolve() }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass"))

        _ = try test.resolve(Sync.self)

        #expect(test.warnings.map(\.identifier) == ["resolver-bypass"])
        #expect(test.warnings.first?.message.hasPrefix("the factory of Sync (or an initCompleted hook of it)") == true)
    }

    /// A factory resolving from another test container it captured: that call is the other test
    /// container's, recorded by its own recorder (not swapped for this one's bypass watcher), and
    /// this test container warns without naming a key it did not watch.
    @Test func aFactoryResolvingFromAnotherTestContainerIsRecordedThereAndAWarningHere() throws {
        // The captured source observes its own call: it records it, and its overrides answer.
        let otherBase = Container()
        otherBase.register(NetworkClient.self) { _ in LiveNetworkClient() }
        let other = TestContainer(base: otherBase)
        other.override(NetworkClient.self, instance: SpyNetwork())
        let base = Container()
        base.register(Sync.self) { _ in try Sync(client: other.resolve()) }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass"))

        let sync = try test.resolve(Sync.self)

        #expect(sync.client is SpyNetwork)
        #expect(other.resolutionCount(of: NetworkClient.self) == 1)
        #expect(test.resolutionCount(of: NetworkClient.self) == 0)
        // This test container did not watch that call, so the warning names no key.
        let warning = try #require(test.warnings.first)
        #expect(test.warnings.count == 1)
        #expect(warning.key == ServiceKey(Sync.self))
        #expect(warning.message.contains(
            "resolved from a container it captured instead of through the resolver it receives, so this "
                + "TestContainer's overrides could not reach what it resolved that way"), "\(warning.message)")
    }

    @Test func anInjectableResolvingFromAnotherContainerIsAWarning() throws {
        let test = TestContainer(base: Container())
        test.wiringFindings(.allow("resolver-bypass"))

        _ = try test.resolve(BypassingUploader.self)

        let warning = try #require(test.warnings.first)
        #expect(test.warnings.count == 1)
        #expect(warning.identifier == "resolver-bypass")
        #expect(warning.message == """
            the init(resolver:) of BypassingUploader (Injectable) resolved NetworkClient from a container it \
            captured instead of through the resolver it receives, so this TestContainer's overrides could not \
            reach it
              fix: resolve through the resolver init(resolver:) receives: `try resolver.resolve()`
            """)
        #expect(warning.key == ServiceKey(BypassingUploader.self))
        #expect(warning.site == nil)
    }

    @Test func resolvingThroughTheResolverIsNotAWarning() throws {
        let base = makeUploadContainer()
        base.register(Sync.self) { r in try Sync(client: r.resolve()) }
        let test = TestContainer(base: base)
        test.override(NetworkClient.self, instance: SpyNetwork())
        _ = try test.resolve(Uploader.self)
        _ = try test.resolve(Provider<Uploader>.self)()
        // The test container itself, captured: its overrides reach what it resolves.
        test.override(Sync.self) { _ in try Sync(client: test.resolve()) }
        _ = try test.resolve(Sync.self)
        #expect(test.warnings.isEmpty)
    }

    @Test func eachKeyABypassResolvesIsNamedWithTheOverrideOfTheLayerItMissed() throws {
        let base = Container()
        base.register(NetworkClient.self) { _ in LiveNetworkClient() }
        base.register(Sync.self, file: "App/Setup.swift", line: 20) { [weak base] _ in
            let sync = try Sync(client: base!.resolve())
            sync.backup = try base!.resolve(NetworkClient.self)
            return sync
        }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("resolver-bypass", "unbalanced-push"))
        test.pushLayer("offline")
        let overrideLine = #line + 1
        test.override(NetworkClient.self) { _ in SpyNetwork() }

        _ = try test.resolve(Sync.self)

        let firstLines = test.warnings.map { String($0.message.prefix { $0 != "\n" }) }
        let expected = """
            the factory of Sync (or an initCompleted hook of it), registered at App/Setup.swift:20, resolved \
            NetworkClient from a container it captured instead of through the resolver it receives, so it \
            missed the override of NetworkClient in layer "offline" at \(#fileID):\(overrideLine)
            """
        #expect(firstLines == [expected])
    }

    @Test func aBypassRepeatedIsOneWarning() throws {
        let test = TestContainer(base: makeBypassingContainer())
        test.wiringFindings(.allow("resolver-bypass"))
        for _ in 0..<5 { _ = try test.resolve(Sync.self) }
        #expect(test.warnings.count == 1)
    }

    @Test func aBypassOnAnotherThreadIsNoticedToo() async throws {
        let test = TestContainer(base: makeBypassingContainer())
        test.wiringFindings(.allow("resolver-bypass"))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try? test.resolve(Sync.self) } }
        }
        #expect(test.warnings.map(\.identifier) == ["resolver-bypass"])
    }

    // MARK: Overrides of what a singleton was made with

    @Test func anOverrideOfWhatASingletonWasMadeWithIsNoWarning() throws {
        let container = makeUploadContainer()
        container.register(Sync.self) { r in try Sync(client: r.resolve()) }.scope(.container)
        let test = TestContainer(base: container)
        let before = try test.resolve(Sync.self)
        test.override(NetworkClient.self, instance: SpyNetwork())
        let after = try test.resolve(Sync.self)

        // The singleton is made again with the override, so nothing is stale.
        #expect(after !== before)
        #expect(test.warnings.isEmpty)
    }

    // MARK: All of them

    @Test func warningsAreInTheOrderNoticedAndOutliveTheTrace() throws {
        let test = TestContainer(base: makeBypassingContainer())
        test.wiringFindings(.allow("resolver-bypass", "unbalanced-pop"))
        _ = try test.resolve(Sync.self)
        test.popLayer()
        _ = try test.resolve(Sync.self)
        test.clearTrace()

        #expect(test.warnings.map(\.identifier) == ["resolver-bypass", "unbalanced-pop"])
    }

    @Test func eachTestContainerHasItsOwnWarnings() throws {
        let base = makeBypassingContainer()
        let first = TestContainer(base: base)
        let second = TestContainer(base: base)
        first.wiringFindings(.allow("resolver-bypass"))
        second.wiringFindings(.allow("unbalanced-pop"))
        _ = try first.resolve(Sync.self)
        second.popLayer()

        #expect(first.warnings.map(\.identifier) == ["resolver-bypass"])
        #expect(second.warnings.map(\.identifier) == ["unbalanced-pop"])
    }
}
