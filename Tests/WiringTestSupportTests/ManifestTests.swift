import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Fixtures of this file only: `M` keeps them apart from the target's other fixtures.

private final class MNetwork: Sendable {}
private final class MOfflineNetwork: Sendable {}
private final class MClock: Sendable {}
private final class MLogger: Sendable {}
private final class MPrinter: Sendable {}
private final class MCart: Sendable {
    init(network: MNetwork) {}
}
private final class MCheckout: Sendable {
    init(cart: MCart, clock: MClock?) {}
}
private final class MAudit: Injectable, Sendable {
    init(resolver: any Resolver) throws {
        _ = try resolver.resolve(MNetwork.self)
    }
}
private final class MReport: Sendable {
    init(audit: MAudit, logger: MLogger, printer: MPrinter) {}
}
private final class MGreeter: Sendable {
    init(name: String, logger: MLogger) {}
}
private final class MConfig: Sendable {}
private final class MReceipt: Sendable {
    init(printer: MPrinter, clock: MClock) {}
}

private struct ConfigError: Error, CustomStringConvertible {
    var description: String { "no config file, expected at App/Config.swift:12" }
}

/// The registrations of the shop below, to register in any order.
private enum MRegistration: CaseIterable {
    case network, cart, checkout, report, greeter
}

/// A small shop: a singleton network, an autowired cart and checkout (whose clock is optional
/// and not registered), a report that needs an `Injectable` audit, a logger nobody registers and
/// a printer nobody registers, and a greeter that takes a runtime argument.
/// - Parameters:
///   - order: The order to register in.
///   - shift: How many lines further down the file each registration says it was made, as if
///     unrelated lines had been added above it.
private func makeShop(_ order: [MRegistration] = MRegistration.allCases, linesMovedBy shift: UInt = 0) -> Container {
    let container = Container()
    for registration in order {
        switch registration {
        case .network:
            container.register(MNetwork.self, line: #line + shift) { _ in MNetwork() }.scope(.container)
        case .cart:
            container.autoregister(MCart.self, line: #line + shift, initializer: MCart.init)
        case .checkout:
            container.autoregister(MCheckout.self, line: #line + shift, initializer: MCheckout.init)
        case .report:
            container.register(MReport.self, line: #line + shift) { r in
                try MReport(audit: r.resolve(), logger: r.resolve(), printer: r.resolve())
            }
        case .greeter:
            container.register(MGreeter.self, line: #line + shift) { (r, name: String) in
                try MGreeter(name: name, logger: r.resolve())
            }
        }
    }
    return container
}

/// The test container a test of the shop makes: a fake logger, and an offline network in a layer.
private func makeTest(of container: Container) -> TestContainer {
    let test = TestContainer(base: container)
    test.fakes.register(MLogger.self) { MLogger() }
    // The manifest is read with the layer still pushed, and the container freed with it.
    test.wiringFindings(.allow("unbalanced-push"))
    test.pushLayer("offline")
    test.override(MNetwork.self) { _ in MNetwork() }
    return test
}

@Suite struct Manifest {
    @Test func listsEveryRegistrationWithWhatItNeedsThenTheProblems() {
        let manifest = makeTest(of: makeShop()).wiringManifest()

        #expect(manifest.render() == """
            Wiring manifest: 5 registrations, 1 implicit type, 1 problem, 1 unchecked

            MAudit [.graph] (implicit)
              needs MNetwork
            MCart [.graph] at WiringTestSupportTests/ManifestTests.swift
              needs MNetwork
            MCheckout [.graph] at WiringTestSupportTests/ManifestTests.swift
              needs MCart
              needs MClock? (missing)
            MGreeter (arguments: String) [.transient] at WiringTestSupportTests/ManifestTests.swift (unchecked)
            MNetwork [.container] at WiringTestSupportTests/ManifestTests.swift (override "offline")
            MReport [.graph] at WiringTestSupportTests/ManifestTests.swift (failed)
              needs MAudit (implicit)
              needs MLogger (fake)
              needs MPrinter (missing)

            missing-dependency: no registration for MPrinter
              path: MReport -> MPrinter
              registered at: WiringTestSupportTests/ManifestTests.swift (MReport)
              fix: register it with `container.register(MPrinter.self) { r in … }` (or in a module the container is built from).

            unchecked (not built, so not verified):
              MGreeter (arguments: String) at WiringTestSupportTests/ManifestTests.swift: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(MGreeter.self, arguments: <String>) }`
            """)
    }

    @Test func theSameWiringRegisteredInAnotherOrderRendersTheSame() {
        let forward = makeShop()
        let backward = makeShop(MRegistration.allCases.reversed())
        #expect(forward.registrations.map(\.key) != backward.registrations.map(\.key))

        #expect(makeTest(of: forward).wiringManifest().render() == makeTest(of: backward).wiringManifest().render())
    }

    @Test func editingUnrelatedLinesChangesNothing() {
        let before = makeShop()
        let after = makeShop(linesMovedBy: 40)
        #expect(before.registrations.map(\.site) != after.registrations.map(\.site))

        #expect(makeTest(of: before).wiringManifest().render() == makeTest(of: after).wiringManifest().render())
    }

    @Test func aCycleReadsTheSameWhicheverSideIsRegisteredFirst() {
        func makeCycle(_ order: [any Sendable.Type]) -> Container {
            let container = Container()
            for type in order {
                if type == Session.self {
                    container.register(Session.self) { r in _ = try r.resolve(Screen.self); return Session() }
                } else {
                    container.register(Screen.self) { r in _ = try r.resolve(Session.self); return Screen() }
                }
            }
            return container
        }
        let sessionFirst = TestContainer(base: makeCycle([Session.self, Screen.self])).wiringManifest()
        let screenFirst = TestContainer(base: makeCycle([Screen.self, Session.self])).wiringManifest()

        // verifyWiring() enters the cycle from the registration made first; the manifest does not.
        let reports = [[Session.self, Screen.self], [Screen.self, Session.self]].map { order in
            TestContainer(base: makeCycle(order)).verifyWiring().problems.map(\.path.description)
        }
        #expect(reports[0] != reports[1])
        #expect(sessionFirst.render() == screenFirst.render())
        #expect(sessionFirst.render() == """
            Wiring manifest: 2 registrations, 1 problem, 0 unchecked

            Screen [.graph] at WiringTestSupportTests/ManifestTests.swift (failed)
              needs Session
            Session [.graph] at WiringTestSupportTests/ManifestTests.swift (failed)
              needs Screen

            cycle: circular dependency while resolving Screen
              path: Screen -> Session -> Screen
              cycle: Screen -> Session -> Screen
              registered at: WiringTestSupportTests/ManifestTests.swift (Session)
              fix: break the cycle: inject `Provider<Screen>` or `Lazy<Screen>` and call it only after the initializers have run, or set the back reference in `.initCompleted { r, instance in … }` on either registration, in any scope but .transient.
            """)
    }

    @Test func whatOnlyAnInitializerDeclaresIsMarked() {
        let container = Container()
        container.register(MClock.self) { _ in MClock() }
        container.autoregister(MReceipt.self, initializer: MReceipt.init)   // the printer is missing

        let receipt = TestContainer(base: container).wiringManifest().entries.first { $0.key == ServiceKey(MReceipt.self) }

        #expect(receipt?.description == """
            MReceipt [.graph] at WiringTestSupportTests/ManifestTests.swift (failed)
              needs MClock (declared only)
              needs MPrinter (missing)
            """)
        #expect(receipt?.needs.map(\.isResolved) == [false, true])
    }

    @Test func samplesBuildWhatTakesRuntimeArguments() {
        let test = makeTest(of: makeShop())

        let manifest = test.wiringManifest { samples in
            samples.add(MGreeter.self, arguments: "Ada")
        }

        let greeter = manifest.entries.first { $0.key == ServiceKey(MGreeter.self, arguments: String.self) }
        #expect(greeter?.check == .built)
        #expect(greeter?.needs.map(\.description) == ["MLogger (fake)"])
        #expect(manifest.report.unchecked.isEmpty)
    }

    @Test func noLineNumberIsLeftInTheProblems() {
        let container = Container()
        container.register(MConfig.self) { _ in throw ConfigError() }

        let manifest = TestContainer(base: container).wiringManifest()

        #expect(manifest.report.problems.map(\.identifier) == ["factory-failed"])
        #expect(manifest.render().hasSuffix("""
            factory-failed: the factory of MConfig threw: no config file, expected at App/Config.swift
              path: MConfig
              registered at: WiringTestSupportTests/ManifestTests.swift (MConfig)
            """ + "\n  fix: " + manifest.report.problems[0].fix))
        #expect(WiringManifest.withoutLineNumbers("at A/B.swift:12, C.swift:3: and D.swift: E.swift") == "at A/B.swift, C.swift: and D.swift: E.swift")
    }

    @Test func isTheSameOnEveryCallAndLeavesNothingBehind() throws {
        let test = makeTest(of: makeShop())
        let unused = test.unusedRegistrations()

        let first = test.wiringManifest()
        let second = test.wiringManifest()

        #expect(first.render() == second.render())
        #expect(first.description == first.render())
        #expect(first.entries == second.entries)
        #expect(test.trace.render() == "")
        #expect(test.unusedRegistrations() == unused)
        #expect(test.resolutionCount(of: MNetwork.self) == 0)
    }

    @Test func anEmptyTestContainerHasAnEmptyManifest() {
        #expect(TestContainer(base: Container()).wiringManifest().render() == "Wiring manifest: 0 registrations, 0 problems, 0 unchecked")
    }
}
