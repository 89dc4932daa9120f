import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Property injection is part of the graph: an object a factory makes resolves its `@Injected`
// properties in that factory's resolution, from the test container or the verification sandbox,
// never from `Container.shared`; what it needs is recorded as the registration's needs.

/// A keychain whose live factory a test must never run.
private final class PKeychain: Sendable {}
private final class PFakeKeychain: Sendable {}

/// A session store whose keychain is property-injected, as apps do with `@Injected`.
private final class PSessionStore: @unchecked Sendable {
    @Injected var keychain: PKeychain
}

/// Counts how often the live keychain was made.
private let liveKeychains = Locked(0)

private func makeInjectedApp() -> Container {
    let container = Container()
    container.register(PKeychain.self) { _ in
        liveKeychains.withLock { $0 += 1 }
        return PKeychain()
    }.scope(.container).liveOnly()
    container.register(PSessionStore.self) { _ in PSessionStore() }
    return container
}

@Suite struct PropertyInjectionGraphTests {
    @Test func verificationNeverRunsALiveFactoryThroughInjectedEvenWithTheAppsContainerBound() {
        let app = makeInjectedApp()
        let before = liveKeychains.withLock { $0 }
        let test = TestContainer(base: makeInjectedApp())

        // The app's live container bound where `@Injected` looks (as `Container.shared` would be
        // in an app host): inside the check, the sandbox answers instead.
        let report = Container.withCurrent(app) { test.verifyWiring() }
        _ = Container.withCurrent(app) { test.wiringManifest() }

        #expect(liveKeychains.withLock { $0 } == before, "the live keychain ran")
        #expect(report.liveOnly == [ServiceKey(PKeychain.self)])
        #expect(!report.isComplete, "what needs the live-only keychain is unchecked: \(report)")
    }

    @Test func aTestContainersResolveInjectsFromTheTestContainerAndRecordsTheNeed() throws {
        let test = TestContainer(base: makeInjectedApp())
        let keychain = PKeychain()
        test.override(PKeychain.self, instance: keychain)

        let store = try test.resolve(PSessionStore.self)

        #expect(store.keychain === keychain)
        #expect(test.trace.render() == """
            PSessionStore .graph new #2
            └── PKeychain .container new #1 (override "test")
            """)
        let manifest = test.wiringManifest()
        let entry = manifest.entries.first { $0.key == ServiceKey(PSessionStore.self) }
        #expect(entry?.needs.map(\.key) == [ServiceKey(PKeychain.self)])
    }
}

/// A screen model whose analytics are property-injected, and registered nowhere.
private final class PAnalytics: Sendable {}
private final class PScreenModel: @unchecked Sendable {
    @Injected var analytics: PAnalytics
}

@Suite struct UnansweredPropertyInjectionTests {
    @Test func anInjectedPropertyNothingAnswersMakesTheReportIncompleteNamingTheProperty() throws {
        let container = Container()
        container.register(PScreenModel.self, file: "App/Screens.swift", line: 4) { _ in PScreenModel() }
        let test = TestContainer(base: container)

        let report = test.verifyWiring()

        #expect(!report.isComplete)
        let problem = try #require(report.problems.first)
        #expect(problem.identifier == "missing-dependency")
        #expect(problem.key == ServiceKey(PAnalytics.self) || problem.path.last == ServiceKey(PAnalytics.self))
        #expect(problem.message.hasPrefix(
            "PScreenModel has an @Injected property of PAnalytics, declared at WiringTestSupportTests/PropertyInjectionGraphTests.swift:"))
        #expect(problem.description.contains("registered at: App/Screens.swift:4"), "\(problem)")
        #expect(problem.fix.hasPrefix("register PAnalytics in the app's container"))
        // The manifest lists the need, as missing.
        let manifest = test.wiringManifest()
        let model = manifest.entries.first { $0.key == ServiceKey(PScreenModel.self) }
        #expect(model?.needs.map(\.description) == ["PAnalytics (missing)"], "\(manifest)")
    }
}

/// A kept service whose store is property-injected lazily.
private final class PKeptService: @unchecked Sendable {
    @LazyInjected var store: PFakeKeychain
}

@Suite struct LazyPropertyInjectionTests {
    @Test func aLazyInjectedPropertyOfAKeptInstanceDoesNotKeepItsContainerAlive() throws {
        weak var released: Container?
        var service: PKeptService?
        do {
            let container = Container()
            container.register(PFakeKeychain.self) { _ in PFakeKeychain() }
            container.register(PKeptService.self) { _ in PKeptService() }.scope(.container)
            service = try container.resolve(PKeptService.self)
            _ = service?.store                                   // resolved from the container that made it
            released = container
        }
        #expect(released == nil, "the kept service's @LazyInjected keeps its container alive")
        withExtendedLifetime(service) {}
    }
}
