import Testing
import WiringSwiftTesting
import WiringTestHelpers

// Each assertion passing, and failing at the caller's line with the full text, under Swift Testing.

@Suite struct AssertResolvesTests {
    @Test func returnsTheInstance() {
        let test = TestContainer(base: makeAppContainer())
        let checkout = assertResolves(Checkout.self, in: test)
        #expect(checkout != nil)
        #expect(assertResolves(Checkout.self, in: makeAppContainer()) != nil)   // a Container too
    }

    @Test func resolvesNamedAndWithArguments() {
        let container = Container()
        container.register(Database.self, name: "replica") { _ in Database() }
        container.register(String.self) { (_, name: String, count: Int) in "\(name) × \(count)" }
        #expect(assertResolves(Database.self, name: "replica", in: container) != nil)
        #expect(assertResolves(String.self, arguments: "Ada", 2, in: container) == "Ada × 2")
    }

    @Test func failsWithTheResolutionError() {
        let test = TestContainer(base: Container())
        var network: (any Network)?
        let line = #line + 1
        let failures = expectFailures { network = assertResolves(Network.self, in: test) }
        #expect(network == nil)
        #expect(failures.count == 1)
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileID == #fileID)
        let error = ResolutionErrorText.of(Network.self, in: test)
        #expect(failures.first?.message == "Network could not be resolved:\n" + indented(error))
    }

    @Test func checksTheConcreteType() {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        let fake = assertResolves(Network.self, to: FakeNetwork.self, in: test)
        #expect(fake?.label == "fake")
    }

    @Test func failsOnAnotherConcreteType() {
        let test = TestContainer(base: makeAppContainer())
        let site = siteOf(Network.self, in: test.base)
        let line = #line + 1
        let failures = expectFailures { _ = assertResolves(Network.self, to: FakeNetwork.self, in: test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            Network resolved to LiveNetwork, not FakeNetwork
              resolved from: .container, registered at \(site)
              fix: override it before it is first resolved, e.g. `test.override(Network.self) { _ in FakeNetwork(…) }`, or expect the type it has
            """)
    }
}

/// The text a resolution error has, to compare failure messages with.
enum ResolutionErrorText {
    static func of<Service>(_ type: Service.Type, in resolver: any Resolver) -> String {
        do {
            _ = try resolver.resolve(type)
            return ""
        } catch {
            return "\(error)"
        }
    }
}

/// Indents every line by two spaces, as failure messages nest an error's text.
func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}

@Suite struct AssertWiringCompleteTests {
    @Test func passesForACompleteGraph() {
        assertWiringComplete(TestContainer(base: makeAppContainer()))
        assertWiringComplete(makeAppContainer())
    }

    @Test func failsWithEveryProblem() {
        let container = makeAppContainer()
        container.register(Checkout.self) { r in
            try Checkout(cart: r.resolve(), payments: r.resolve(Payments.self, name: "card"))
        }
        let test = TestContainer(base: container)
        let line = #line + 1
        let failures = expectFailures { assertWiringComplete(test) }
        #expect(failures.map(\.line) == [line])
        let message = failures.first?.message ?? ""
        #expect(message.hasPrefix("the wiring is incomplete:\n  Wiring: 4 registrations checked, 1 problem"))
        #expect(message.contains("  missing-dependency: no registration for Payments (name: \"card\")"))
        #expect(message.contains("    path: Checkout -> Payments (name: \"card\")"))
    }

    @Test func takesSamplesForRegistrationsWithArguments() {
        let container = Container()
        container.register(String.self) { (_, name: String) in name }
        assertWiringComplete(container) { samples in samples.add(String.self, arguments: "Ada") }
    }
}

@Suite struct AssertNoUnusedRegistrationsTests {
    @Test func passesWhenEverythingWasResolved() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test)
    }

    @Test func ignoresTheKeysGiven() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Cart.self)
        assertNoUnusedRegistrations(test, ignoring: [ServiceKey(Payments.self), ServiceKey(Checkout.self)])
    }

    @Test func failsListingEachUnusedRegistration() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        _ = try test.resolve(Cart.self)
        let site = siteOf(Payments.self, in: test.base)
        let line = #line + 1
        let failures = expectFailures { assertNoUnusedRegistrations(test, ignoring: [ServiceKey(Checkout.self)]) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            1 registration was never resolved through the test container:
              Payments, registered at \(site)
              fix: resolve what the test is about, remove registrations and overrides it does not need, or pass their keys in `ignoring:`
            """)
    }
}

@Suite struct AssertRegisteredTests {
    @Test func passesWhenEveryKeyIsRegistered() {
        let test = TestContainer(base: makeAppContainer())
        test.fakes.register(Analytics.self) { NoopAnalytics() }
        assertRegistered([ServiceKey(Network.self), ServiceKey(Checkout.self), ServiceKey(Analytics.self)], in: test)
        assertRegistered([ServiceKey(Cart.self)], in: makeAppContainer())
    }

    @Test func failsListingMissingKeysAndNearMisses() {
        let container = makeAppContainer()
        container.register(Database.self, name: "primary") { _ in Database() }
        let line = #line + 1
        let failures = expectFailures { assertRegistered([ServiceKey(Database.self), ServiceKey(Cart.self), ServiceKey(Logger.self)], in: container) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            2 keys are not registered:
              Database
                registered for Database: Database (name: "primary") at WiringSwiftTestingTests/AssertionTests.swift:\(line - 2)
              Logger
              fix: register each, e.g. `container.register(Database.self) { r in … }`
            """)
    }
}

@Suite struct AssertNoFakesUsedTests {
    @Test func passesWhenNoFakeWasUsed() throws {
        let test = TestContainer(base: makeAppContainer())
        test.fakes.register(Analytics.self) { NoopAnalytics() }
        _ = try test.resolve(Checkout.self)
        assertNoFakesUsed(test)
    }

    @Test func failsListingEveryFakedKey() throws {
        let test = TestContainer(base: makeAppContainer())
        test.fakes.register(Analytics.self) { NoopAnalytics() }
        test.fakes.register(Logger.self) { ConsoleLogger() }
        _ = try test.resolve(Analytics.self)
        _ = try test.resolve(Logger.self)
        let line = #line + 1
        let failures = expectFailures { assertNoFakesUsed(test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            2 services came from fakes, as nothing registered them or their registration is live-only:
              Analytics
              Logger
              fix: register them in the app's container, or override them in the test if a double is intended
            """)
    }
}
