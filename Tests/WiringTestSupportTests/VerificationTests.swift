import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Fixtures of this file only: `V` keeps them apart from the target's other fixtures. Every
// registration passes `file:` and `line:`, so the sites in the expected reports stay put.

private final class VEngine {}
private final class VCar {
    init(engine: VEngine) {}
}
private final class VGarage {
    init(car: VCar) {}
}
private final class VChicken {
    init(egg: VEgg) {}
}
private final class VEgg {
    init(chicken: VChicken) {}
}
private final class VFarm {
    init(chicken: VChicken) {}
}
private struct VDiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
}
private final class VFlaky {
    init() throws { throw VDiskFull() }
}
private final class VReport {
    init(flaky: VFlaky) {}
}
private final class VRequest {}
private final class VCache {
    init(request: VRequest) {}
}
private final class VSession {}
private final class VPage {}
private final class VDirectory {
    init(page: VPage) {}
}
private protocol VLogging: AnyObject {}
private final class VConsoleLogger: VLogging {}
private final class VAudit {
    init(logging: any VLogging) {}
}
private final class VLater {
    init(requests: Provider<VRequest>) {}
}
private final class VGreeting {
    init(name: String) {}
}
private final class VSingleton {}
private final class VUser {
    init(singleton: VSingleton) {}
}
private protocol VAnalytics {}
private struct VNoopAnalytics: VAnalytics {}
private final class VTracker {
    init(analytics: any VAnalytics) {}
}
private final class VDatabase {}
private final class VRepository {
    init(database: VDatabase) {}
}
private final class VParent: @unchecked Sendable {
    var child: VChild?
}
private final class VChild {
    let parent: VParent
    init(parent: VParent) { self.parent = parent }
}
private final class VNode {
    init(_ dependencies: [VNode]) {}
}

/// Counts calls from any thread.
private final class VCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}

private let setup: StaticString = "App/Setup.swift"

@Suite struct Verification {
    @Test func aCompleteGraphIsComplete() {
        let container = Container()
        container.register(VEngine.self, file: setup, line: 1) { _ in VEngine() }
        container.register(VCar.self, file: setup, line: 2) { r in try VCar(engine: r.resolve()) }
        container.register(VGarage.self, file: setup, line: 3) { r in try VGarage(car: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.isComplete)
        #expect(report.checked == [ServiceKey(VEngine.self), ServiceKey(VCar.self), ServiceKey(VGarage.self)])
        #expect(report.unchecked.isEmpty)
        #expect(report.description == "Wiring: 3 registrations checked, 0 problems, 0 unchecked")
    }

    @Test func aRegistrationTakingArgumentsBuiltAsADependencyIsChecked() {
        final class Engine {}
        final class Car {
            let engine: Engine
            init(engine: Engine) { self.engine = engine }
        }
        let container = Container()
        container.register(Engine.self) { (_, cylinders: Int) in Engine() }
        container.register(Car.self) { r in try Car(engine: r.resolve(Engine.self, arguments: 8)) }
        container.register(VEngine.self) { (_, cylinders: Int) in VEngine() }      // built by nothing

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.checked.contains(ServiceKey(Engine.self, arguments: Int.self)), "built by Car, with Car's arguments")
        #expect(report.unchecked == [ServiceKey(VEngine.self, arguments: Int.self)])
        #expect(report.problems.isEmpty)
        #expect(!report.isComplete, "VEngine still needs a sample")
    }

    @Test func aMissingDependencyIsOneProblemWithItsPathAndNearMisses() {
        let container = Container()
        container.register(VEngine.self, name: "v8", file: setup, line: 1) { _ in VEngine() }
        container.register(VEngine.self, file: setup, line: 2) { (_, cylinders: Int) in VEngine() }
        container.register(VGarage.self, file: setup, line: 3) { r in try VGarage(car: r.resolve()) }
        container.register(VCar.self, file: setup, line: 4) { r in try VCar(engine: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        // Found when verifying VGarage too, but reported once: under VCar, the closest registration.
        #expect(report.problems.count == 1)
        let problem = report.problems[0]
        #expect(problem.kind == .missingDependency)
        #expect(problem.identifier == "missing-dependency")
        #expect(problem.key == ServiceKey(VCar.self))
        #expect(problem.path == [ServiceKey(VCar.self), ServiceKey(VEngine.self)])
        #expect(problem.site == RegistrationSite(fileID: "App/Setup.swift", line: 4))
        #expect(problem.message == "no registration for VEngine")
        #expect(report.description == """
            Wiring: 3 registrations checked, 1 problem, 1 unchecked (incomplete: 1 registration is unchecked)

            missing-dependency: no registration for VEngine
              path: VCar -> VEngine
              registered for VEngine:
                VEngine (name: "v8")      at App/Setup.swift:1
                VEngine (arguments: Int)  at App/Setup.swift:2
              registered at: App/Setup.swift:4 (VCar)
              fix: register it with `container.register(VEngine.self) { r in … }`, or ask for one of the keys registered above.

            unchecked (not built, so not verified):
              VEngine (arguments: Int) at App/Setup.swift:2: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(VEngine.self, arguments: <Int>) }`
            """)
    }

    @Test func aCycleIsOneProblemWhicheverKeyEntersIt() {
        let container = Container()
        container.register(VFarm.self, file: setup, line: 1) { r in try VFarm(chicken: r.resolve()) }
        container.register(VChicken.self, file: setup, line: 2) { r in try VChicken(egg: r.resolve()) }
        container.register(VEgg.self, file: setup, line: 3) { r in try VEgg(chicken: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.count == 1)
        #expect(report.problems.first?.kind == .cycle)
        #expect(report.problems.first?.key == ServiceKey(VChicken.self))
        #expect(report.description == """
            Wiring: 3 registrations checked, 1 problem, 0 unchecked

            cycle: circular dependency while resolving VChicken
              path: VChicken -> VEgg -> VChicken
              cycle: VChicken -> VEgg -> VChicken
              registered at: App/Setup.swift:3 (VEgg)
              fix: break the cycle: inject `Provider<VChicken>` or `Lazy<VChicken>` and call it only after the initializers have run, or set the back reference in `.initCompleted { r, instance in … }` on either registration, in any scope but .transient.
            """)
    }

    @Test func aBackReferenceSetInInitCompletedBuildsFromEitherEnd() throws {
        let container = Container()
        container.register(VParent.self, file: setup, line: 1) { _ in VParent() }
            .initCompleted { r, parent in parent.child = try r.resolve(VChild.self) }
        container.register(VChild.self, file: setup, line: 2) { r in try VChild(parent: r.resolve()) }
        // From the parent, the parent is in the graph before its hook runs. From the child, the
        // parent's hook asks for the child still being built: it is made inside the hook, and the
        // outer resolve returns that one, so both ends point at each other.
        let parent = try container.resolve(VParent.self)
        #expect(parent.child?.parent === parent)
        let child = try container.resolve(VChild.self)
        #expect(child.parent.child === child)

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.isEmpty)
    }

    @Test func aThrowingFactoryIsReportedWithItsError() {
        let container = Container()
        container.register(VReport.self, file: setup, line: 1) { r in try VReport(flaky: r.resolve()) }
        container.register(VFlaky.self, file: setup, line: 2) { _ in try VFlaky() }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.count == 1)
        let problem = report.problems[0]
        #expect(problem.kind == .factoryFailed)
        #expect(problem.identifier == "factory-failed")
        #expect(problem.key == ServiceKey(VFlaky.self))
        #expect(problem.path == [ServiceKey(VFlaky.self)])
        #expect(problem.site == RegistrationSite(fileID: "App/Setup.swift", line: 2))
        #expect(problem.description == """
            factory-failed: the factory of VFlaky threw: disk full
              path: VFlaky
              registered at: App/Setup.swift:2 (VFlaky)
              fix: make the factory of VFlaky succeed here (the error above is the factory's own), or catch it inside the factory.
            """)
    }

    @Test func aSingletonHoldingATransientIsCaptive() {
        let container = Container()
        container.register(VRequest.self, file: setup, line: 1) { _ in VRequest() }.scope(.transient)
        container.register(VCache.self, file: setup, line: 2) { r in try VCache(request: r.resolve()) }
            .scope(.container)

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.count == 1)
        let problem = report.problems[0]
        #expect(problem.kind == .captiveDependency)
        #expect(problem.key == ServiceKey(VCache.self))
        #expect(problem.path == [ServiceKey(VCache.self), ServiceKey(VRequest.self)])
        #expect(problem.site == RegistrationSite(fileID: "App/Setup.swift", line: 2))
        #expect(problem.description == """
            captive-dependency: VCache (.container) holds VRequest (.transient), so one VRequest lives as long as the kept VCache
              path: VCache -> VRequest
              registered at: App/Setup.swift:2 (VCache)
              fix: make VRequest .container too, or inject `Provider<VRequest>` into VCache and resolve it when needed.
            """)
    }

    @Test func holdingGraphScopedServicesForwardedSingletonsAndProvidersIsNotCaptive() {
        let container = Container()
        container.register(VPage.self, file: setup, line: 1) { _ in VPage() }
        container.register(VDirectory.self, file: setup, line: 2) { r in try VDirectory(page: r.resolve()) }
            .scope(.container)
        // `implements` serves the singleton through a .transient forwarding registration.
        container.register(VConsoleLogger.self, file: setup, line: 3) { _ in VConsoleLogger() }
            .scope(.container)
            .implements((any VLogging).self)
        container.register(VAudit.self, file: setup, line: 4) { r in try VAudit(logging: r.resolve()) }
            .scope(.container)
        container.register(VRequest.self, file: setup, line: 5) { _ in VRequest() }.scope(.transient)
        container.register(VLater.self, file: setup, line: 6) { r in try VLater(requests: r.resolve()) }
            .scope(.container)

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.isComplete, "\(report)")
    }

    @Test(arguments: [
        (holder: Scope.container, held: Scope.weak, isCaptive: true),
        (holder: Scope.container, held: Scope("session"), isCaptive: true),
        (holder: Scope("session"), held: Scope.transient, isCaptive: true),
        (holder: Scope("session"), held: Scope.weak, isCaptive: true),
        (holder: Scope.weak, held: Scope.transient, isCaptive: true),
        (holder: Scope.weak, held: Scope("session"), isCaptive: false),
        (holder: Scope.container, held: Scope.container, isCaptive: false),
        (holder: Scope.graph, held: Scope.transient, isCaptive: false),
        (holder: Scope.transient, held: Scope.transient, isCaptive: false),
    ])
    func captiveDependenciesFollowTheRankOfLifetimes(holder: Scope, held: Scope, isCaptive: Bool) {
        let container = Container()
        container.register(VSession.self, file: setup, line: 1) { _ in VSession() }.scope(held)
        container.register(VCache.self, file: setup, line: 2) { r in
            _ = try r.resolve(VSession.self)
            return VCache(request: VRequest())
        }
        .scope(holder)

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.map(\.identifier) == (isCaptive ? ["captive-dependency"] : []), "\(report)")
        if isCaptive {
            #expect(report.problems.first?.message
                == "VCache (\(holder)) holds VSession (\(held)), so one VSession lives as long as the kept VCache")
        }
    }

    @Test func argumentRegistrationsAreUncheckedWithoutSamplesAndCheckedWithThem() {
        let container = Container()
        let greeted = VCounter()
        container.register(VGreeting.self, file: setup, line: 1) { (_, name: String) in
            greeted.increment()
            return VGreeting(name: name)
        }
        let test = TestContainer(base: container)
        let key = ServiceKey(VGreeting.self, arguments: String.self)

        let unsampled = test.verifyWiring()
        #expect(!unsampled.isComplete)
        #expect(unsampled.checked.isEmpty)
        #expect(unsampled.unchecked == [key])
        #expect(greeted.value == 0)
        #expect(unsampled.description == """
            Wiring: 0 registrations checked, 0 problems, 1 unchecked (incomplete: 1 registration is unchecked)

            unchecked (not built, so not verified):
              VGreeting (arguments: String) at App/Setup.swift:1: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(VGreeting.self, arguments: <String>) }`
            """)

        let sampled = test.verifyWiring { samples in
            samples.add(VGreeting.self, arguments: "Ada")
        }
        #expect(sampled.isComplete)
        #expect(sampled.checked == [key])
        #expect(sampled.unchecked.isEmpty)
        #expect(greeted.value == 1)
    }

    @Test func aSampleForNoRegistrationIsAProblem() {
        let container = Container()
        container.register(VGreeting.self, file: setup, line: 1) { (_, name: String) in VGreeting(name: name) }

        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(VGreeting.self, arguments: 42)
        }

        #expect(report.unchecked == [ServiceKey(VGreeting.self, arguments: String.self)])
        #expect(report.description == """
            Wiring: 0 registrations checked, 1 problem, 1 unchecked (incomplete: 1 registration is unchecked)

            unused-sample: a sample was added for VGreeting (arguments: Int), but nothing registers that key
              path: VGreeting (arguments: Int)
              registered for VGreeting:
                VGreeting (arguments: String)  at App/Setup.swift:1
              fix: VGreeting is registered to take the runtime arguments (String), and this sample passes (Int): give it matching ones, as in `samples.add(VGreeting.self, arguments: <String>)`, or remove it.

            unchecked (not built, so not verified):
              VGreeting (arguments: String) at App/Setup.swift:1: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(VGreeting.self, arguments: <String>) }`
            """)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let container = Container()
        container.register(VCar.self, file: setup, line: 1) { r in try VCar(engine: r.resolve()) }
        container.register(VChicken.self, file: setup, line: 2) { r in try VChicken(egg: r.resolve()) }
        container.register(VEgg.self, file: setup, line: 3) { r in try VEgg(chicken: r.resolve()) }
        container.register(VFlaky.self, file: setup, line: 4) { _ in try VFlaky() }
        container.register(VRequest.self, file: setup, line: 5) { _ in VRequest() }.scope(.transient)
        container.register(VCache.self, file: setup, line: 6) { r in try VCache(request: r.resolve()) }
            .scope(.container)
        container.register(VPage.self, file: setup, line: 7) { _ in VPage() }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.map(\.kind) == [.missingDependency, .cycle, .factoryFailed, .captiveDependency])
        #expect(report.problems.map(\.key) == [
            ServiceKey(VCar.self), ServiceKey(VChicken.self), ServiceKey(VFlaky.self), ServiceKey(VCache.self),
        ])
        #expect(report.checked.count == 7)
        #expect(report.description.hasPrefix("Wiring: 7 registrations checked, 4 problems, 0 unchecked\n\n"))
    }

    @Test func nothingSurvivesTheSandbox() throws {
        let container = Container()
        let made = VCounter()
        container.register(VEngine.self, file: setup, line: 1) { _ in VEngine() }
        container.register(VSingleton.self, file: setup, line: 2) { _ in
            made.increment()
            return VSingleton()
        }
        .scope(.container)
        container.register(VUser.self, file: setup, line: 3) { r in try VUser(singleton: r.resolve()) }
        let test = TestContainer(base: container)
        _ = try test.resolve(VEngine.self)
        let trace = test.trace.render()
        let unused = test.unusedRegistrations()

        let report = test.verifyWiring()

        #expect(report.isComplete)
        #expect(made.value == 1)    // made once in the sandbox, though VUser needs it too
        #expect(test.trace.render() == trace)
        #expect(test.trace.roots.count == 1)
        #expect(test.resolutionCount(of: VSingleton.self) == 0)
        #expect(test.resolutionCount(of: VEngine.self) == 1)
        #expect(test.unusedRegistrations() == unused)
        _ = try test.resolve(VSingleton.self)
        #expect(made.value == 2)    // the sandbox's singleton went with it
        _ = try container.resolve(VSingleton.self)
        #expect(made.value == 3)    // and never reached the base
    }

    @Test func overridesAreVerifiedInsteadOfWhatTheyReplace() {
        let container = Container()
        container.register(VEngine.self, file: setup, line: 1) { _ in throw VDiskFull() }
        container.register(VCar.self, file: setup, line: 2) { r in try VCar(engine: r.resolve()) }
        let test = TestContainer(base: container)
        test.override(VEngine.self, file: "Tests/Doubles.swift", line: 9) { _ in VEngine() }

        #expect(test.verifyWiring().isComplete)

        test.pushLayer("broken")
        defer { test.popLayer() }
        test.override(VCar.self, file: "Tests/Doubles.swift", line: 10) { _ in throw VDiskFull() }
        let report = test.verifyWiring()

        #expect(report.problems.map(\.identifier) == ["factory-failed"])
        #expect(report.problems.first?.key == ServiceKey(VCar.self))
        #expect(report.problems.first?.site == RegistrationSite(fileID: "Tests/Doubles.swift", line: 10))
        #expect(report.checked == [ServiceKey(VEngine.self), ServiceKey(VCar.self)])
    }

    @Test func strictFakesReportEveryFakedKey() {
        let container = Container()
        container.register(VTracker.self, file: setup, line: 1) { r in try VTracker(analytics: r.resolve()) }
        let test = TestContainer(base: container)
        test.fakes.register((any VAnalytics).self, file: "Tests/Fakes.swift", line: 5) { VNoopAnalytics() }

        #expect(test.verifyWiring().isComplete)

        test.fakes.isStrict = true
        let report = test.verifyWiring()
        #expect(report.problems.map(\.kind) == [.faked])
        #expect(report.problems.first?.path == [ServiceKey(VTracker.self), ServiceKey((any VAnalytics).self)])
        #expect(test.fakes.fakedKeys.isEmpty)     // verifying used the fake, the test did not
        #expect(report.description == """
            Wiring: 1 registration checked, 1 problem, 0 unchecked

            faked: VAnalytics came from the fake registered at Tests/Fakes.swift:5: nothing registers it
              path: VTracker -> VAnalytics
              registered at: App/Setup.swift:1 (VTracker)
              fix: register VAnalytics in the app's container (or override it in the test), or leave `fakes.isStrict` off if a fake is what the test wants.
            """)
    }

    @Test func awaitedFactoriesAreUnchecked() {
        let container = Container()
        container.registerAsync(VDatabase.self, file: setup, line: 1) { _ in VDatabase() }
        container.register(VRepository.self, file: setup, line: 2) { r in try VRepository(database: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        #expect(!report.isComplete)
        #expect(report.unchecked == [ServiceKey(VDatabase.self), ServiceKey(VRepository.self)])
        #expect(report.description == """
            Wiring: 0 registrations checked, 0 problems, 2 unchecked (incomplete: 2 registrations are unchecked)

            unchecked (not built, so not verified):
              VDatabase at App/Setup.swift:1: its factory must be awaited (registerAsync, or registerMainActor off the main actor), which this synchronous check does not run; check it with `await test.verifyWiringAsync()`, or call `verifyWiring()` on the main actor
              VRepository at App/Setup.swift:2: needs VDatabase, whose factory must be awaited (path: VRepository -> VDatabase); check it with `await test.verifyWiringAsync()`
            """)
    }

    @Test func verifyingAsyncBuildsAwaitedFactoriesToo() async {
        let container = Container()
        container.registerAsync(VDatabase.self, file: setup, line: 1) { _ in VDatabase() }.scope(.container)
        container.registerAsync(VRepository.self, file: setup, line: 2) { r in try await VRepository(database: r.resolve()) }
        let test = TestContainer(base: container)

        let report = await test.verifyWiringAsync()
        #expect(report.isComplete, "\(report)")
        #expect(report.checked == [ServiceKey(VDatabase.self), ServiceKey(VRepository.self)])
        // Nothing survives the check.
        #expect(test.resolutionCount(of: VDatabase.self) == 0)
    }

    @Test func verifyingAsyncReportsASynchronousFactoryThatNeedsAnAwaitedOne() async {
        let container = Container()
        container.registerAsync(VDatabase.self, file: setup, line: 1) { _ in VDatabase() }
        container.register(VRepository.self, file: setup, line: 2) { r in try VRepository(database: r.resolve()) }

        let report = await TestContainer(base: container).verifyWiringAsync()

        #expect(!report.isComplete)
        #expect(report.unchecked.isEmpty)
        #expect(report.problems.map(\.identifier) == ["requires-await"], "\(report)")
        #expect(report.problems.first?.path == [ServiceKey(VRepository.self), ServiceKey(VDatabase.self)])
    }

    @Test func aThousandRegistrationsAreVerified() {
        let container = Container()
        var keys: [ServiceKey] = []
        for index in 0..<1000 {
            let name = "node\(index)"
            let dependencies = index == 0 ? [] : ["node\(index - 1)", "node\(index / 2)"]
            container.register(VNode.self, name: name) { r in
                try VNode(dependencies.map { try r.resolve(VNode.self, name: $0) })
            }
            .scope(index % 10 == 0 ? .container : .graph)
            keys.append(ServiceKey(VNode.self, name: name))
        }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.isComplete)
        #expect(report.checked == keys)
    }
}
