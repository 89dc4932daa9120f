import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

@Suite struct Overrides {
    @Test func anOverrideReachesEveryDepthWithoutTouchingTheBase() throws {
        let base = makeAppContainer()
        let test = TestContainer(base: base)
        test.override((any Network).self) { _ in FakeNetwork() }

        let checkout = try test.resolve(Checkout.self)
        #expect(checkout.cart.network.label == "fake")
        #expect(checkout.payments.network.label == "fake")
        #expect(try base.resolve(Checkout.self).cart.network.label == "live")
    }

    @Test func theBaseCacheIsNeitherReadNorWritten() throws {
        let made = Tally()
        let base = makeAppContainer(networkMade: made)
        let live = try base.resolve((any Network).self)
        let test = TestContainer(base: base)

        let inTest = try test.resolve((any Network).self)
        #expect(inTest !== live)
        #expect(made.value == 2)
        #expect(try base.resolve((any Network).self) === live)
    }

    @Test func namedOverridesReplaceOnlyThatName() throws {
        let base = Container()
        base.register(String.self) { _ in "primary" }
        base.register(String.self, name: "replica") { _ in "replica" }
        let test = TestContainer(base: base)
        @Sendable func makeReplica(_: any Resolver) -> String { "fake replica" }
        test.override(String.self, name: "replica", factory: makeReplica)

        #expect(try test.resolve(String.self) == "primary")
        #expect(try test.resolve(String.self, name: "replica") == "fake replica")
    }

    /// A factory's named resolve reads the layers as a top-level one does (both look the name up
    /// in the snapshot's registry first), and the trace names the override that answered.
    @Test func aFactorysNamedResolveFindsTheNamedOverride() throws {
        let base = Container()
        base.register(Coupon.self, name: "welcome") { _ in Coupon(code: "LIVE") }
        base.register(Basket.self) { r in try Basket(coupon: r.resolve(Coupon.self, name: "welcome")) }
        let test = TestContainer(base: base)
        test.override(Coupon.self, name: "welcome") { _ in Coupon(code: "TEST") }

        #expect(try test.resolve(Basket.self).coupon?.code == "TEST")
        #expect(try test.resolve(Coupon.self, name: "welcome").code == "TEST")
        #expect(try base.resolve(Basket.self).coupon?.code == "LIVE")
        #expect(test.trace.render() == """
            Basket .graph new #2
            └── Coupon (name: "welcome") .graph new #1 (override "test")
            Coupon (name: "welcome") .graph new #3 (override "test")
            """)
    }

    @Test func overridesTakeRuntimeArguments() throws {
        let base = Container()
        base.register(String.self) { (_, count: Int) in "live \(count)" }
        let test = TestContainer(base: base)
        test.override(String.self) { (_, count: Int) in "fake \(count)" }
        #expect(try test.resolve(String.self, arguments: 3) == "fake 3")
    }

    @Test func aLayersOverrideTakesRuntimeArgumentsKeepsTheReplacedScopeAndGoesWithThePop() throws {
        /// What the double was asked for: a plain class the test keeps, not `Sendable`.
        final class Asked {
            var labels: [String] = []
        }
        let base = Container()
        base.register((any Network).self) { (_, label: String) in FakeNetwork(label: "live \(label)") }.scope(.container)
        let test = TestContainer(base: base)
        let asked = Asked()
        let layer = test.pushLayer("offline")
        layer.override((any Network).self) { (_, label: String) in
            asked.labels.append(label)
            return FakeNetwork(label: "offline \(label)")
        }

        let a = try test.resolve((any Network).self, arguments: "a")
        #expect(a.label == "offline a")
        // The override keeps the .container scope it replaces: one instance per argument value.
        #expect(try test.resolve((any Network).self, arguments: "a") === a)
        let b = try test.resolve((any Network).self, arguments: "b")
        #expect(b.label == "offline b")
        #expect(b !== a)
        #expect(asked.labels == ["a", "b"])

        test.popLayer()
        #expect(try test.resolve((any Network).self, arguments: "a").label == "live a")
        #expect(asked.labels == ["a", "b"])
    }

    /// A plain key overridden in two layers: the top one answers, at the top and inside a
    /// factory, and the one below answers again once it is popped.
    @Test func theTopLayersOverrideOfAPlainKeyAnswersBeforeTheOneBelow() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override((any Network).self) { _ in FakeNetwork(label: "test") }
        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }

        #expect(try test.resolve((any Network).self).label == "offline")
        #expect(try test.resolve(Cart.self).network.label == "offline")
        test.popLayer()
        #expect(try test.resolve(Cart.self).network.label == "test")
    }

    @Test func aRegistrationOfTheTestContainerTakesRuntimeArgumentsBelowEveryLayer() throws {
        let base = Container()
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("override-of-unregistered"))
        test.register(String.self) { (_, count: Int) in "registered \(count)" }
        #expect(try test.resolve(String.self, arguments: 2) == "registered 2")

        test.pushLayer("layer").override(String.self) { (_, count: Int) in "layer \(count)" }
        #expect(try test.resolve(String.self, arguments: 2) == "layer 2")
        test.popLayer()
        #expect(try test.resolve(String.self, arguments: 2) == "registered 2", "the pop leaves the registration")
        // The base is untouched.
        #expect(throws: ResolutionError.self) { try base.resolve(String.self, arguments: 2) }
    }

    @Test func poppingALayerRestoresExactlyTheStateBeforeThePush() throws {
        let test = TestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        let before = try test.resolve((any Network).self)

        test.pushLayer("offline")
        test.override((any Network).self) { _ in FakeNetwork(label: "offline") }.scope(.container)
        let inLayer = try test.resolve((any Network).self)
        #expect(inLayer.label == "offline")
        #expect(test.layerNames == ["offline"])
        #expect(try test.resolve((any Network).self) === inLayer)

        #expect(test.popLayer()?.name == "offline")
        let after = try test.resolve((any Network).self)
        #expect(after === before)
        #expect(test.layerNames.isEmpty)
        #expect(test.popLayer() == nil)
    }

    @Test func aSingletonFirstMadeInsideALayerIsGoneAfterThePop() throws {
        let test = TestContainer(base: makeAppContainer())
        test.pushLayer("offline")
        test.override(Cart.self) { _ in Cart(network: FakeNetwork()) }
        let inLayer = try test.resolve((any Network).self)
        test.popLayer()
        #expect(try test.resolve((any Network).self) !== inLayer)
    }

    @Test func withOverridesBindsTheLayerToThisTaskOnly() throws {
        let test = TestContainer(base: makeAppContainer())
        let label = try test.withOverrides({ layer in
            layer.override((any Network).self) { _ in FakeNetwork(label: "scoped") }
        }) {
            try test.resolve(Checkout.self).cart.network.label
        }
        #expect(label == "scoped")
        #expect(try test.resolve(Checkout.self).cart.network.label == "live")
    }

    @Test func overrideInsideWithOverridesGoesIntoTheTasksLayer() throws {
        let test = TestContainer(base: makeAppContainer())
        let inner = try test.withOverrides({ _ in }) {
            test.override((any Network).self) { _ in FakeNetwork(label: "inner") }
            return try test.resolve((any Network).self).label
        }
        #expect(inner == "inner")
        #expect(try test.resolve((any Network).self).label == "live")
    }

    @Test func asyncWithOverridesReachesChildTasks() async throws {
        let test = TestContainer(base: makeAppContainer())
        let label = try await test.withOverrides({ layer in
            layer.override((any Network).self) { _ in FakeNetwork(label: "async") }
        }) {
            try await Task { try test.resolve(Checkout.self).payments.network.label }.value
        }
        #expect(label == "async")
    }

    @Test func parallelTasksNeverSeeEachOthersOverrides() async throws {
        let test = TestContainer(base: makeAppContainer())
        let results = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await test.withOverrides({ layer in
                        layer.override((any Network).self) { _ in FakeNetwork(label: "task \(index)") }
                            .scope(.container)
                    }) {
                        var seen: [String] = []
                        for _ in 0..<20 {
                            let checkout = try test.resolve(Checkout.self)
                            seen.append(checkout.cart.network.label)
                            seen.append(checkout.payments.network.label)
                            await Task.yield()
                        }
                        return (index, seen)
                    }
                }
            }
            var all: [(Int, [String])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 50)
        for (index, seen) in results {
            #expect(Set(seen) == ["task \(index)"])
        }
        #expect(try test.resolve((any Network).self).label == "live")
    }

    @Test func resettingAScopeMakesNewInstancesInTheTestContainerOnly() throws {
        let base = makeAppContainer()
        let test = TestContainer(base: base)
        let first = try test.resolve((any Network).self)
        test.resetScope(.container)
        #expect(try test.resolve((any Network).self) !== first)
    }

    @Test func resettingOneRegistrationOfAScopeKeepsTheOthersAndLeavesTheBaseAlone() throws {
        final class Session {}
        final class Basket {}
        let session = Scope("test-session")
        let base = Container()
        base.register(Session.self) { _ in Session() }.scope(session)
        base.register(Basket.self) { _ in Basket() }.scope(session)
        let keptByBase = try base.resolve(Session.self)
        let test = TestContainer(base: base)
        let firstSession = try test.resolve(Session.self)
        let basket = try test.resolve(Basket.self)
        test.pushLayer("checkout")
        let layered = try test.resolve(Session.self)
        #expect(layered === firstSession, "a layer sees the instance kept below it")

        test.resetScope(session, only: ServiceKey(Session.self))
        let secondSession = try test.resolve(Session.self)
        #expect(secondSession !== firstSession, "the reset registration makes a new instance")
        #expect(try test.resolve(Basket.self) === basket, "the scope's other instances stay")
        test.popLayer()
        #expect(try test.resolve(Session.self) !== firstSession, "dropped in every layer, the root too")
        #expect(try base.resolve(Session.self) === keptByBase, "the base container is never touched")

        test.resetScope(.container, only: ServiceKey(Basket.self))
        #expect(try test.resolve(Basket.self) === basket, "another scope's reset leaves it alone")
    }

    @Test func resettingOneOverriddenRegistrationDropsTheOverridesInstance() throws {
        final class Clock {}
        let base = Container()
        base.register(Clock.self) { _ in Clock() }.scope(.container)
        let test = TestContainer(base: base)
        test.override(Clock.self) { _ in Clock() }.scope(.container)
        let first = try test.resolve(Clock.self)
        #expect(try test.resolve(Clock.self) === first)
        test.resetScope(.container, only: ServiceKey(Clock.self))
        #expect(try test.resolve(Clock.self) !== first)
    }
}

@Suite struct Recording {
    @Test func theTraceIsATreeWithNumberedInstances() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        _ = try test.resolve(Checkout.self)
        #expect(test.trace.render() == """
            Checkout .graph new #4
            ├── Cart .graph new #2
            │   └── Network .container new #1
            └── Payments .graph new #3
                └── Network .container cached #1
            Checkout .graph new #7
            ├── Cart .graph new #5
            │   └── Network .container cached #1
            └── Payments .graph new #6
                └── Network .container cached #1
            """)
    }

    @Test func allNodesListsEveryStepOfEveryResolveDepthFirst() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        _ = try test.resolve(Cart.self)
        let nodes = test.trace.allNodes
        let (checkout, cart, payments, network) = (
            ServiceKey(Checkout.self), ServiceKey(Cart.self), ServiceKey(Payments.self), ServiceKey((any Network).self)
        )
        #expect(nodes.map(\.key) == [checkout, cart, network, payments, network, cart, network])
        #expect(nodes.map(\.outcome) == [.created, .created, .created, .created, .cached, .created, .cached])
        #expect(nodes.map(\.instance) == [4, 2, 1, 3, 1, 5, 1])
        test.clearTrace()
        #expect(test.trace.allNodes.isEmpty)
    }

    @Test func countsResolutionsAtEveryDepthUntilCleared() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        _ = try test.resolve(Cart.self)
        #expect(test.resolutionCount(of: (any Network).self) == 3)
        #expect(test.resolutionCount(of: Checkout.self) == 1)
        #expect(test.resolutionCount(of: Cart.self) == 2)
        test.clearTrace()
        #expect(test.resolutionCount(of: Cart.self) == 0)
        #expect(test.trace.roots.isEmpty)
    }

    @Test func failuresAreRecordedWithTheirIdentifier() throws {
        let base = Container()
        base.register(Cart.self) { r in try Cart(network: r.resolve()) }
        let test = TestContainer(base: base)
        #expect(throws: ResolutionError.self) { try test.resolve(Cart.self) }
        #expect(test.trace.render() == """
            Cart .graph failed: not-registered
            └── Network failed: not-registered
            """)
    }

    @Test func overridesFakesAndImplicitTypesAreMarked() throws {
        let base = Container()
        base.register(Payments.self) { r in try Payments(network: r.resolve()) }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("override-of-unregistered"))
        test.fakes.register((any Network).self) { FakeNetwork() }
        test.override(Cart.self) { r in try Cart(network: r.resolve()) }
        _ = try test.resolve(Cart.self)
        _ = try test.resolve(Provider<Payments>.self)
        #expect(test.trace.render() == """
            Cart .graph new #2 (override "test")
            └── Network .graph new #1 (fake)
            Provider<Payments> .transient new #3 (implicit)
            """)
        #expect(test.fakes.fakedKeys == [ServiceKey((any Network).self)])
    }

    @Test func recordingCanBeTurnedOff() throws {
        let test = TestContainer(base: makeAppContainer())
        test.isRecording = false
        _ = try test.resolve(Cart.self)
        #expect(test.trace.roots.isEmpty)
        #expect(test.resolutionCount(of: Cart.self) == 1)
    }

    @Test func aTraceNumbersItsInstancesFromOneAfterItIsCleared() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        test.clearTrace()
        _ = try test.resolve(Cart.self)
        // Rendered from #1, in the order made, so that a snapshot does not depend on what ran before.
        #expect(test.trace.render() == """
            Cart .graph new #2
            └── Network .container cached #1
            """)
        // The nodes keep the test container's numbers.
        #expect(test.trace.allNodes.map(\.instance) == [5, 1])
        #expect(test.unusedRegistrations().map(\.key).contains(ServiceKey(Cart.self)) == false)
    }

    @Test func aChangeToAnOverrideAfterAResolveIsSeenByTheNext() throws {
        let test = TestContainer(base: makeAppContainer())
        let made = Tally()
        let registration = test.override(Cart.self) { r in
            made.increment()
            return try Cart(network: r.resolve())
        }
        let first = try test.resolve(Cart.self)
        #expect(try test.resolve(Cart.self) !== first)
        registration.scope(.container)
        let kept = try test.resolve(Cart.self)
        #expect(try test.resolve(Cart.self) === kept)
        #expect(made.value == 3)
        #expect(test.trace.render().hasSuffix("""
            Cart .container cached #4 (override "test")
            """))
    }

    @Test func anObjectReturnedUnderAnotherKeyKeepsItsNumber() throws {
        let base = Container()
        base.register(LiveNetwork.self) { _ in LiveNetwork() }.scope(.container)
        // A protocol that is not class-bound hides the object behind an existential.
        base.register((any Labelled).self) { r in try r.resolve(LiveNetwork.self) }.scope(.transient)
        base.register((any Network).self) { r in try r.resolve(LiveNetwork.self) }.scope(.transient)
        let test = TestContainer(base: base)
        _ = try test.resolve((any Labelled).self)
        _ = try test.resolve((any Network).self)
        #expect(test.trace.render() == """
            Labelled .transient new #1
            └── LiveNetwork .container new #1
            Network .transient new #1
            └── LiveNetwork .container cached #1
            """)
    }

    @Test func anObjectDroppedInsideAResolutionDoesNotLendItsNumber() throws {
        let base = Container()
        base.register(Ticket.self) { _ in Ticket() }.scope(.transient)
        base.register(Receipt.self) { r in
            _ = try r.resolve(Ticket.self)
            return Receipt()
        }.scope(.transient)
        let test = TestContainer(base: base)
        _ = try test.resolve(Receipt.self)
        _ = try test.resolve(Receipt.self)
        #expect(test.trace.render() == """
            Receipt .transient new #2
            └── Ticket .transient new #1
            Receipt .transient new #4
            └── Ticket .transient new #3
            """)
    }

    @Test func recordingDoesNotKeepInstancesAliveAfterTheResolve() throws {
        let base = Container()
        base.register(Ticket.self) { _ in Ticket() }.scope(.transient)
        base.register((any Labelled).self) { _ in LiveNetwork() }.scope(.transient)
        base.register(Receipt.self) { _ in Receipt() }.scope(.weak)
        let test = TestContainer(base: base)
        weak let ticket = try test.resolve(Ticket.self)
        weak let labelled = try test.resolve((any Labelled).self) as? LiveNetwork
        weak let receipt = try test.resolve(Receipt.self)
        #expect(ticket == nil)
        #expect(labelled == nil)
        #expect(receipt == nil)
        #expect(test.trace.roots.map(\.instance) == [1, 2, 3])
    }

    @Test func aTestContainerAndWhatItRecordedGoAwayTogether() throws {
        weak var base: Container?
        weak var test: TestContainer?
        try {
            let container = makeAppContainer()
            let testContainer = TestContainer(base: container)
            base = container
            test = testContainer
            _ = try testContainer.resolve(Checkout.self)
            _ = try testContainer.resolveAll(Cart.self)
            _ = testContainer.verifyWiring()
            _ = testContainer.trace
            _ = try testContainer.resolve(Checkout.self)
        }()
        #expect(test == nil)
        #expect(base == nil)
    }

    /// Clearing a trace whose resolves only made new instances still uses up their numbers:
    /// the nodes after it go on from there. Without leak tracking (as in release builds), such
    /// a clear skips the numbers without replaying the steps.
    @Test func numbersGoOnAfterClearingResolvesThatOnlyMadeNewInstances() throws {
        let base = Container()
        base.register(Ticket.self) { _ in Ticket() }
        let test = TestContainer(base: base)
        test.isTrackingLeaks = false
        _ = try test.resolve(Ticket.self)
        test.clearTrace()
        _ = try test.resolve(Ticket.self)
        test.clearTrace()
        _ = try test.resolve(Ticket.self)
        #expect(test.trace.allNodes.map(\.instance) == [3])
        #expect(test.trace.render() == "Ticket .graph new #1")
    }

    @Test func numbersGoOnTheSameWhetherOrNotTheTraceWasReadBeforeClearing() throws {
        func render(readingBeforeClearing: Bool) throws -> String {
            let test = TestContainer(base: makeAppContainer())
            test.wiringFindings(.allow("override-of-unregistered"))
            test.override((any Labelled).self) { r in try r.resolve((any Network).self) as! LiveNetwork }
                .scope(.transient)
            test.override(Ticket.self) { _ in Ticket() }.scope(.transient)
            test.override((any Sendable).self, name: "ticket") { r in try r.resolve(Ticket.self) }.scope(.transient)
            test.override((any Sendable).self, name: "pair") { r in
                let first = try r.resolve(Ticket.self)
                _ = try r.resolve(Ticket.self)
                return first
            }.scope(.transient)
            _ = try test.resolve(Checkout.self)
            _ = try test.resolve((any Labelled).self)
            // Transient steps giving one object under two keys, and two objects of one class.
            _ = try test.resolve((any Sendable).self, name: "ticket")
            _ = try test.resolve((any Sendable).self, name: "pair")
            if readingBeforeClearing { _ = test.trace }
            test.clearTrace()
            _ = try test.resolve((any Labelled).self)
            _ = try test.resolve(Cart.self)
            return test.trace.render()
        }
        let expected = """
            Labelled .transient new #1 (override "test")
            └── Network .container cached #1
            Cart .graph new #2
            └── Network .container cached #1
            """
        #expect(try render(readingBeforeClearing: true) == expected)
        #expect(try render(readingBeforeClearing: false) == expected)
    }

    /// 8 threads, released together, resolve a graph around the base's singleton Network while
    /// one of them reads the trace, in each of many fresh test containers
    /// (`FactorySpeed.rounds`): the test container makes its Network once, and the trace
    /// records every resolution.
    @Test(arguments: FactorySpeed.allCases)
    func resolvingFromManyThreadsWhileReadingTheTraceMakesTheSingletonOnceAndRecordsEveryResolution(
        speed: FactorySpeed
    ) async throws {
        let threads = 8
        let resolvesPerThread = 5
        let resolves = threads * resolvesPerThread
        try await rounds(speed.rounds) { round in
            let made = LockedCounter()
            let base = makeAppContainer()
            base.register((any Network).self) { _ in
                made.increment()
                speed.work()
                return LiveNetwork()
            }
            .scope(.container)
            let test = TestContainer(base: base)
            test.override(Payments.self) { r in try Payments(network: r.resolve()) }
            let networks = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(threads) { index in
                for _ in 0..<resolvesPerThread {
                    if let checkout = try? test.resolve(Checkout.self) {
                        networks.insert(checkout.cart.network)
                        networks.insert(checkout.payments.network)
                    } else {
                        failures.increment()
                    }
                    if index == 0 { _ = test.trace.roots.count }
                }
            }
            try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(made.value == 1, "round \(round): the test container made its Network \(made.value) times")
            try #require(networks.distinctCount == 1, "round \(round): \(networks.distinctCount) different Networks handed out")

            let trace = test.trace
            let networkKey = ServiceKey((any Network).self)
            let networksCreated = trace.roots.flatMap(\.allNodes).filter { $0.key == networkKey && $0.outcome == .created }
            try #require(
                networksCreated.count == 1, "round \(round): the trace shows the Network made \(networksCreated.count) times")
            try #require(trace.roots.count == resolves, "round \(round): \(trace.roots.count) roots traced, not \(resolves)")
            try #require(
                test.resolutionCount(of: (any Network).self) == 2 * resolves,
                "round \(round): \(test.resolutionCount(of: (any Network).self)) Network resolutions traced, not \(2 * resolves)")
            try #require(
                Set(trace.roots.compactMap(\.instance)).count == resolves,
                "round \(round): the traced Checkouts are not \(resolves) different instances")
        }
    }
}

@Suite struct Reports {
    @Test func missingRegistrationsListsOnlyWhatNothingCanResolve() {
        let test = TestContainer(base: makeAppContainer())
        test.fakes.register((any Analytics).self) { NoopAnalytics() }
        let missing = test.missingRegistrations(expected: [
            ServiceKey((any Network).self), ServiceKey(String.self, name: "primary"),
            ServiceKey((any Analytics).self), ServiceKey(Provider<Cart>.self), ServiceKey(Int.self),
        ])
        #expect(missing == [ServiceKey(String.self, name: "primary"), ServiceKey(Int.self)])
    }

    @Test func unusedRegistrationsIncludeOverridesNobodyUsed() throws {
        let test = TestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("override-of-unregistered", "unbalanced-push"))
        test.override(Payments.self) { r in try Payments(network: r.resolve()) }
        test.pushLayer("offline")
        test.override(String.self) { _ in "unused" }
        _ = try test.resolve(Cart.self)

        // The base's Payments is shadowed by the override, so only the override is listed.
        let unused = test.unusedRegistrations().map(\.description)
        try #require(unused.count == 3)
        #expect(unused[0].hasPrefix("Checkout, registered at WiringTestHelpers/AppGraph.swift:"))
        #expect(unused[1].hasPrefix("Payments, overridden in layer \"test\" at WiringTestSupportTests/TestContainerTests.swift:"))
        #expect(unused[2].hasPrefix("String, overridden in layer \"offline\" at WiringTestSupportTests/TestContainerTests.swift:"))
    }

    @Test func aCachedInstanceMadeBeforeAnOverrideIsMadeAgainNotReportedAsStale() throws {
        let base = makeAppContainer()
        base.register(Payments.self) { r in try Payments(network: r.resolve()) }.scope(.container)
        let test = TestContainer(base: base)
        _ = try test.resolve(Payments.self)
        test.override((any Network).self) { _ in FakeNetwork() }
        let payments = try test.resolve(Payments.self)

        #expect(payments.network.label == "fake")
        // Registering Payments again in the base is a duplicate; nothing else is worth a warning.
        #expect(test.warnings.map(\.identifier) == ["duplicate-registration"])
        #expect(test.trace.render().contains("Payments .container new #4\n│   ↻ made again: Network is now answered by layer \"test\""))
    }
}

@Suite struct ResolvingLikeAContainer {
    @Test func registerResolveAllAndProvidersWork() throws {
        let base = Container()
        base.register(String.self, name: "a") { _ in "a" }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("override-of-unregistered"))
        test.override(String.self, name: "b") { _ in "b" }
        #expect(try test.resolveAll(String.self) == ["a", "b"])

        test.override(String.self, name: "a") { _ in "A" }
        #expect(try test.resolveAll(String.self).sorted() == ["A", "b"])

        let provider = try test.resolve(Provider<String>.self, name: "b")
        #expect(try provider() == "b")
    }

    @Test func aChangeToTheBaseAfterAResolveIsSeenByTheNext() throws {
        let base = makeAppContainer()
        let test = TestContainer(base: base)
        _ = try test.resolve(Cart.self)
        base.register(Ticket.self) { _ in Ticket() }
        #expect(throws: Never.self) { try test.resolve(Ticket.self) }
        base.register(Cart.self) { _ in Cart(network: FakeNetwork(label: "replaced")) }
        #expect(try test.resolve(Cart.self).network.label == "replaced")
        test.override(Payments.self) { _ in Payments(network: FakeNetwork(label: "overridden")) }
        _ = try test.resolve(Payments.self)
        base.register(Cart.self) { _ in Cart(network: FakeNetwork(label: "again")) }
        #expect(try test.resolve(Cart.self).network.label == "again")
        #expect(try test.resolve(Payments.self).network.label == "overridden")
    }

    @Test func asyncFactoriesResolveThroughTheLayersAndAreRecorded() async throws {
        final class Session: Sendable {
            let network: any Network
            init(network: any Network) async {
                await Task.yield()
                self.network = network
            }
        }
        let base = makeAppContainer()
        base.registerAsync(Session.self) { r in await Session(network: try r.resolve()) }
        let test = TestContainer(base: base)
        test.override((any Network).self) { _ in FakeNetwork(label: "awaited") }

        let session = try await test.async.resolve(Session.self)
        #expect(session.network.label == "awaited")
        #expect(try await base.async.resolve(Session.self).network.label == "live")
        base.registerAsync(Ticket.self) { _ in
            await Task.yield()
            return Ticket()
        }.scope(.container)
        let ticket = try await test.async.resolve(Ticket.self)
        #expect(try await test.async.resolve(Ticket.self) === ticket)
        _ = try await test.async.resolve(Session.self)
        #expect(test.trace.render() == """
            Session .graph new #2 (async)
            └── Network .container new #1 (override "test")
            Ticket .container new #3 (async)
            Ticket .container cached #3
            Session .graph new #4 (async)
            └── Network .container cached #1 (override "test")
            """)
    }

    @Test func propertyWrappersResolveFromTheTestContainer() throws {
        final class Screen {
            @Injected var checkout: Checkout
        }
        let test = TestContainer(base: makeAppContainer())
        test.override((any Network).self) { _ in FakeNetwork(label: "wrapped") }
        let screen = Container.withCurrent(test) { Screen() }
        #expect(screen.checkout.cart.network.label == "wrapped")
    }
}

@Suite struct ReadmeExample {
    /// The complete test the LayersAndParallelTests article shows, kept compiling and passing here.
    @Test func checkoutChargesThroughTheNetwork() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }

        let checkout = try test.resolve(Checkout.self)
        #expect(checkout.payments.network is FakeNetwork)
        #expect(test.resolutionCount(of: Network.self) == 2)
        #expect(test.unusedRegistrations().isEmpty)
        #expect(test.trace.render() == """
            Checkout .graph new #4
            ├── Cart .graph new #2
            │   └── Network .container new #1 (override "test")
            └── Payments .graph new #3
                └── Network .container cached #1 (override "test")
            """)
    }

    @Test func anOverrideKeepsTheScopeOfWhatItReplacesUnlessToldOtherwise() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        #expect(try test.resolve(Network.self) === test.resolve(Network.self))

        test.override(Network.self) { _ in FakeNetwork() }.scope(.transient)
        #expect(try test.resolve(Network.self) !== test.resolve(Network.self))
    }
}
