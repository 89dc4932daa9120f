import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Fixtures of this file only: `L` keeps them apart from the target's other fixtures.

private protocol LGateway: AnyObject {}
private final class LStripeGateway: LGateway {}
private final class LFakeGateway: LGateway {}
private final class LCheckout {
    let gateway: any LGateway
    init(gateway: any LGateway) { self.gateway = gateway }
}
private final class LOrders {
    let checkout: LCheckout
    init(checkout: LCheckout) { self.checkout = checkout }
}
private protocol LHTTPClient: AnyObject {}
private final class LURLSessionClient: LHTTPClient {}
private final class LStubClient: LHTTPClient {}
private final class LCatalog {
    let client: any LHTTPClient
    init(client: any LHTTPClient) { self.client = client }
}

private let setup: StaticString = "App/Setup.swift"

private func makeShop(calls: LockedCounter = LockedCounter()) -> Container {
    let container = Container()
    container.register((any LGateway).self, file: setup, line: 10) { _ in
        calls.increment()
        return LStripeGateway()
    }.liveOnly()
    container.register(LCheckout.self, file: setup, line: 11) { r in try LCheckout(gateway: r.resolve()) }
    container.register(LOrders.self, file: setup, line: 12) { r in try LOrders(checkout: r.resolve()) }
    return container
}

private struct LNetworkModule: Module {
    func register(in container: Container) {
        container.register((any LHTTPClient).self, file: setup, line: 20) { _ in LURLSessionClient() }.scope(.container)
        container.register(String.self, name: "baseURL", file: setup, line: 21) { _ in "https://shop.example" }
    }
}

private struct LFakeNetworkModule: Module {
    func register(in container: Container) {
        container.register((any LHTTPClient).self, file: "Tests/Fakes.swift", line: 5) { _ in LStubClient() }
    }
}

private struct LCatalogModule: Module {
    func register(in container: Container) {
        container.register(LCatalog.self, file: setup, line: 30) { r in try LCatalog(client: r.resolve()) }
    }
}

private struct LPaymentsModule: Module {
    var isLiveOnly: Bool { true }
    func register(in container: Container) {
        container.register((any LGateway).self, file: setup, line: 40) { _ in LStripeGateway() }
    }
}

@Suite("Live-only registrations")
struct LiveOnlyTests {
    @Test func aLiveOnlyRegistrationDeepInAGraphFailsTheResolveWithItsPath() throws {
        let calls = LockedCounter()
        let test = TestContainer(base: makeShop(calls: calls))
        test.wiringFindings(.allow("live-only"))
        let error = try #require(throws: ResolutionError.self) { try test.resolve(LOrders.self) }
        #expect(error.identifier == "live-only")
        #expect(error.description == """
            error: LGateway is registered live-only, and this TestContainer has no override or fake for it: its factory would reach the real thing
              path: LOrders -> LCheckout -> LGateway
              registered at: App/Setup.swift:10
              fix: override it in the test, as in `test.override(LGateway.self) { r in … }`, or give it a fake: `test.fakes.register(LGateway.self) { … }`.
            """)
        #expect(calls.value == 0, "the live factory never ran")
        #expect(test.trace.render() == """
            LOrders .graph failed: live-only
            └── LCheckout .graph failed: live-only
                └── LGateway .graph failed: live-only
            """)
    }

    @Test func aPlainContainerResolvesItAsUsual() throws {
        let calls = LockedCounter()
        let orders = try makeShop(calls: calls).resolve(LOrders.self)
        #expect(orders.checkout.gateway is LStripeGateway)
        #expect(calls.value == 1)
    }

    @Test func anOverrideOrAFakeAnswersIt() throws {
        let calls = LockedCounter()
        let overridden = TestContainer(base: makeShop(calls: calls))
        overridden.override((any LGateway).self) { _ in LFakeGateway() }
        #expect(try overridden.resolve(LOrders.self).checkout.gateway is LFakeGateway)

        let faked = TestContainer(base: makeShop(calls: calls))
        faked.fakes.register((any LGateway).self) { LFakeGateway() }
        #expect(try faked.resolve(LOrders.self).checkout.gateway is LFakeGateway)
        #expect(try faked.resolve((any LGateway).self) is LFakeGateway)
        #expect(faked.trace.render().hasSuffix("LGateway .graph new #4 (fake)"), "\(faked.trace.render())")
        #expect(calls.value == 0)
    }

    @Test func aLiveOnlyModuleMarksEveryRegistration() throws {
        let test = TestContainer(base: Container(modules: [LPaymentsModule()]))
        test.wiringFindings(.allow("live-only"))
        let error = try #require(throws: ResolutionError.self) { try test.resolve((any LGateway).self) }
        #expect(error.identifier == "live-only")
        #expect(error.site == RegistrationSite(fileID: "App/Setup.swift", line: 40))
    }

    @Test func verificationNeverRunsALiveOnlyFactoryAndSaysSo() throws {
        let calls = LockedCounter()
        let test = TestContainer(base: makeShop(calls: calls))
        let report = test.verifyWiring()
        #expect(calls.value == 0, "the live factory never ran")
        #expect(report.liveOnly == [ServiceKey((any LGateway).self)])
        #expect(report.problems.isEmpty)
        #expect(report.unchecked == [ServiceKey(LCheckout.self), ServiceKey(LOrders.self)])
        #expect(report.description.contains("""
            live-only (not run):
              LGateway at App/Setup.swift:10: live-only: its factory is never run here
            """), "\(report)")
        #expect(report.description.contains(
            "LCheckout at App/Setup.swift:11: needs LGateway, which is live-only, so it was not built (path: LCheckout -> LGateway)"),
            "\(report)")

        test.override((any LGateway).self) { _ in LFakeGateway() }
        let withOverride = test.verifyWiring()
        #expect(withOverride.isComplete, "\(withOverride)")
        #expect(withOverride.liveOnly.isEmpty)
        #expect(calls.value == 0)
    }

    /// A live-only registration is not built, but what its autowired initializer needs is
    /// still checked: a dependency nothing registers is a missing-dependency problem.
    @Test func verificationReportsWhatALiveOnlyInitializerNeedsAndNothingRegisters() {
        let base = Container()
        base.autoregister(LCatalog.self, initializer: LCatalog.init).liveOnly()
        let report = TestContainer(base: base).verifyWiring()
        #expect(report.liveOnly == [ServiceKey(LCatalog.self)])
        #expect(report.problems.map(\.identifier) == ["missing-dependency"], "\(report)")
        #expect(report.problems.first?.path == [ServiceKey(LCatalog.self), ServiceKey((any LHTTPClient).self)])
    }

    @Test func explainShowsTheMark() {
        let test = TestContainer(base: makeShop())
        #expect(test.explain((any LGateway).self).description.hasPrefix("""
            LGateway: answered by the live-only registration in the base at App/Setup.swift:10 (.graph)
              factory: live-only: never run through this test container (a resolve throws live-only); override it or give it a fake
            """))
        test.fakes.register((any LGateway).self) { LFakeGateway() }
        #expect(test.explain((any LGateway).self).description.hasPrefix("LGateway: answered by the fake at"))
    }
}

@Suite("Module replacement")
struct ModuleReplacementTests {
    private func makeApp() -> Container {
        Container(modules: [LNetworkModule(), LCatalogModule()])
    }

    @Test func aReplacedModulesRegistrationsAreHiddenAndTheReplacementsAnswer() throws {
        let test = TestContainer(base: makeApp())
        try test.replace(LNetworkModule.self, with: LFakeNetworkModule())

        #expect(try test.resolve(LCatalog.self).client is LStubClient)
        let hidden = try #require(throws: ResolutionError.self) { try test.resolve(String.self, name: "baseURL") }
        #expect(hidden.identifier == "not-registered")
        #expect(test.trace.render() == """
            LCatalog .graph new #2
            └── LHTTPClient .graph new #1 (module LFakeNetworkModule, replaces LNetworkModule)
            String (name: "baseURL") .graph failed: not-registered
            """)
        #expect(test.explain((any LHTTPClient).self).description.hasPrefix(
            "LHTTPClient: answered by the module LFakeNetworkModule, which replaces LNetworkModule in layer \"test\" at Tests/Fakes.swift:5"))
    }

    @Test func poppingTheLayerRestoresTheModule() throws {
        let test = TestContainer(base: makeApp())
        let live = try test.resolve(LCatalog.self)
        #expect(live.client is LURLSessionClient)
        test.pushLayer("offline")
        try test.replace(LNetworkModule.self, with: LFakeNetworkModule())
        #expect(try test.resolve(LCatalog.self).client is LStubClient)
        test.popLayer()
        let restored = try test.resolve(LCatalog.self)
        #expect(restored.client === live.client, "the base's .container client again")
        #expect(try test.resolve(String.self, name: "baseURL") == "https://shop.example")
    }

    @Test func replacingAModuleTheBaseNeverAppliedIsAnErrorNamingTheAppliedOnes() {
        let test = TestContainer(base: makeApp())
        let error = #expect(throws: ModuleReplacementError.self) {
            try test.replace(LPaymentsModule.self, with: LFakeNetworkModule())
        }
        #expect(error?.description == """
            error: cannot replace LPaymentsModule: the base container never applied it (modules applied: LNetworkModule, LCatalogModule)
              fix: replace one of the modules applied, by the type given to `Container(modules:)` or `apply(_:)`
            """)
    }

    @Test func verificationSeesTheReplacement() {
        let test = TestContainer(base: makeApp())
        try? test.replace(LNetworkModule.self, with: LFakeNetworkModule())
        let report = test.verifyWiring()
        #expect(report.isComplete, "\(report)")
        #expect(!report.checked.contains(ServiceKey(String.self, name: "baseURL")), "hidden, not checked")
    }
}

@Suite("Duplicate and misdirected registrations")
struct DuplicateAndMisdirectedTests {
    @Test func aDuplicateFromTwoModulesIsOneWarningWithBothSites() throws {
        let test = TestContainer(base: Container(modules: [LNetworkModule(), LFakeNetworkModule()]))
        let duplicates = test.warnings.filter { $0.identifier == "duplicate-registration" }
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.description == """
            duplicate-registration: LHTTPClient is registered twice: at App/Setup.swift:20 (module LNetworkModule) \
            and at Tests/Fakes.swift:5 (module LFakeNetworkModule); the last one, at Tests/Fakes.swift:5, wins
              fix: remove one of them; to replace a registration in tests, override it in the test container instead
            """)
        #expect(test.verifyWiring().warnings == duplicates)
        #expect(test.verifyWiring().isComplete, "a warning, not a problem")
    }

    @Test func anOverrideInATestIsNoDuplicate() {
        let test = TestContainer(base: Container(modules: [LNetworkModule()]))
        test.override((any LHTTPClient).self) { _ in LStubClient() }
        test.override((any LHTTPClient).self) { _ in LStubClient() }
        #expect(test.warnings.isEmpty)
    }

    @Test func anOverrideOfAConcreteClassRegisteredOnlyAsItsProtocolIsAWarningWithTheSuggestion() throws {
        let test = TestContainer(base: Container(modules: [LNetworkModule()]))
        test.wiringFindings(.allow("override-of-unregistered"))
        let line = #line + 1
        test.override(LURLSessionClient.self) { _ in LURLSessionClient() }
        let warning = try #require(test.warnings.first)
        #expect(warning.identifier == "override-of-unregistered")
        #expect(warning.description == """
            override-of-unregistered: the override of LURLSessionClient at \(#fileID):\(line) replaces nothing: the base \
            container registers no LURLSessionClient, and nothing else answers it (no implicit registration, no fake), so \
            what the test meant to replace still runs
              fix: override the key the app registers. LURLSessionClient is a class, and the app registers the protocol \
            LHTTPClient, which it may conform to: override that key, as in \
            `test.override((any LHTTPClient).self) { r in LURLSessionClient(…) }`.
            """)
    }

    @Test func anOverrideWithATypoGetsADidYouMean() throws {
        let test = TestContainer(base: Container(modules: [LNetworkModule()]))
        test.wiringFindings(.allow("override-of-unregistered"))
        test.override(String.self, name: "baseURI") { _ in "http://localhost" }
        let warning = try #require(test.warnings.first)
        #expect(warning.identifier == "override-of-unregistered")
        #expect(warning.message.contains("did you mean \"baseURL\"?"), "\(warning)")
    }
}
