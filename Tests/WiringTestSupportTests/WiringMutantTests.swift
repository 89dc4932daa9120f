import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport
import XCTest

// Mutants of an app's wiring (`WIRING_MUTANT`): each changes exactly the registration it names,
// only in a test container, never where the test overrode the key; a malformed value ends the
// process with the fix.

/// A small app: a kept event bus two screens must share, a mailer, a per-resolve session, and
/// an `Injectable` clock the app registers anyway.
private enum MutantApp {
    final class EventBus: @unchecked Sendable {
        var posted: [String] = []
    }

    final class Mailer: Sendable {
        let isFake: Bool
        init(isFake: Bool = false) { self.isFake = isFake }
    }

    final class Screen: Sendable {
        let bus: EventBus
        let mailer: Mailer
        init(bus: EventBus, mailer: Mailer) {
            self.bus = bus
            self.mailer = mailer
        }
    }

    /// Two screens made in one resolve: a `.graph` bus is the same in both.
    final class Pair: Sendable {
        let first: Screen
        let second: Screen
        init(first: Screen, second: Screen) {
            self.first = first
            self.second = second
        }
    }

    final class AppClock: Injectable, Sendable {
        let isDefault: Bool
        init(resolver: any Resolver) { isDefault = true }
        init(registered: Void) { isDefault = false }
    }

    static func container(busScope: Scope = .container) -> Container {
        let container = Container()
        container.register(EventBus.self) { _ in EventBus() }.scope(busScope)
        container.register(Mailer.self) { _ in Mailer() }.scope(.container)
        container.register(Screen.self) { r in try Screen(bus: r.resolve(), mailer: r.resolve()) }.scope(.transient)
        container.register(Pair.self) { r in try Pair(first: r.resolve(), second: r.resolve()) }.scope(.transient)
        container.register(AppClock.self) { _ in AppClock(registered: ()) }.scope(.container)
        return container
    }
}

/// A test container of the app made under `mutant`, as `WIRING_MUTANT` would make it.
private func testContainer(_ mutant: String, busScope: Scope = .container) throws -> TestContainer {
    try WiringMutant.$inTask.withValue(WiringMutant.parse(mutant)) {
        TestContainer(base: MutantApp.container(busScope: busScope))
    }
}

@Suite("Wiring mutants in a test container")
struct WiringMutantTests {
    @Test func unshareMakesTheNamedKeptRegistrationAnewOnEveryResolve() throws {
        let test = try testContainer("EventBus:unshare")

        #expect(try test.resolve(MutantApp.EventBus.self) !== test.resolve(MutantApp.EventBus.self))
        // Nothing else changes: the mailer is still one instance.
        #expect(try test.resolve(MutantApp.Mailer.self) === test.resolve(MutantApp.Mailer.self))
        // At every depth: two screens no longer share their bus, but still their mailer.
        let first = try test.resolve(MutantApp.Screen.self)
        let second = try test.resolve(MutantApp.Screen.self)
        #expect(first.bus !== second.bus)
        #expect(first.mailer === second.mailer)
    }

    @Test func aTestThatDependsOnSharingFailsUnderUnshare() throws {
        func postedSeenByAnotherScreen(_ test: TestContainer) throws -> [String] {
            try test.resolve(MutantApp.Screen.self).bus.posted.append("paid")
            return try test.resolve(MutantApp.Screen.self).bus.posted
        }
        #expect(try postedSeenByAnotherScreen(TestContainer(base: MutantApp.container())) == ["paid"])
        #expect(try postedSeenByAnotherScreen(testContainer("EventBus:unshare")) == [])
    }

    @Test func unshareOfAGraphRegistrationSplitsOneResolve() throws {
        let unmutated = TestContainer(base: MutantApp.container(busScope: .graph)).resolving(MutantApp.Pair.self)
        #expect(unmutated.first.bus === unmutated.second.bus)

        let test = try testContainer("EventBus:unshare", busScope: .graph)
        let pair = test.resolving(MutantApp.Pair.self)
        #expect(pair.first.bus !== pair.second.bus, "\(test.trace.render())")
    }

    @Test func unshareMakesAPerArgumentRegistrationAnewForTheSameArguments() throws {
        final class Greeting: Sendable {
            let name: String
            init(_ name: String) { self.name = name }
        }
        func app() -> Container {
            let container = Container()
            container.register(Greeting.self) { (_, name: String) in Greeting(name) }.scope(.container)
            return container
        }
        let kept = TestContainer(base: app())
        #expect(try kept.resolve(Greeting.self, arguments: "Ada") === kept.resolve(Greeting.self, arguments: "Ada"))

        let test = try WiringMutant.$inTask.withValue(WiringMutant.parse("Greeting (arguments: String):unshare")) {
            TestContainer(base: app())
        }
        let first = try test.resolve(Greeting.self, arguments: "Ada")
        #expect(try first !== test.resolve(Greeting.self, arguments: "Ada"))
        #expect(first.name == "Ada")
    }

    @Test func unshareOfATransientRegistrationChangesNothing() throws {
        let test = try testContainer("Screen:unshare")
        let pair = test.resolving(MutantApp.Pair.self)
        #expect(pair.first !== pair.second)
        #expect(pair.first.bus === pair.second.bus)
    }

    @Test func unregisterMakesTheKeyUnregisteredAndOnlyThatKey() throws {
        let test = try testContainer("Mailer:unregister")

        let direct = #expect(throws: ResolutionError.self) { try test.resolve(MutantApp.Mailer.self) }
        #expect(direct?.identifier == "not-registered")
        // What depends on it fails as it would if the module forgot it.
        let nested = #expect(throws: ResolutionError.self) { try test.resolve(MutantApp.Screen.self) }
        #expect("\(nested.map { "\($0)" } ?? "")".contains("Mailer"))
        // The rest of the graph resolves.
        #expect(try test.resolve(MutantApp.EventBus.self) === test.resolve(MutantApp.EventBus.self))
        // Verification sees the registration gone too.
        #expect(!test.visibleRegistrations(includingParents: true).contains { $0.entry.key == ServiceKey(MutantApp.Mailer.self) })
    }

    @Test func anOverriddenKeyIsLeftAlone() throws {
        let unregistered = try testContainer("Mailer:unregister")
        unregistered.override(MutantApp.Mailer.self) { _ in MutantApp.Mailer(isFake: true) }
        #expect(try unregistered.resolve(MutantApp.Mailer.self).isFake)

        let unshared = try testContainer("EventBus:unshare")
        let bus = MutantApp.EventBus()
        unshared.override(MutantApp.EventBus.self, instance: bus)
        #expect(try unshared.resolve(MutantApp.Screen.self).bus === bus)
        #expect(try unshared.resolve(MutantApp.Screen.self).bus === bus)

        // And back to the mutant once the layer that overrode it is popped.
        let layered = try testContainer("EventBus:unshare")
        layered.pushLayer("shared bus")
        layered.override(MutantApp.EventBus.self, instance: bus)
        #expect(try layered.resolve(MutantApp.EventBus.self) === bus)
        layered.popLayer()
        #expect(try layered.resolve(MutantApp.EventBus.self) !== layered.resolve(MutantApp.EventBus.self))
    }

    @Test func fakeAnswersWithTheRegisteredFake() throws {
        let test = try testContainer("Mailer:fake")
        test.fakes.register(MutantApp.Mailer.self) { MutantApp.Mailer(isFake: true) }
        #expect(try test.resolve(MutantApp.Mailer.self).isFake)
        #expect(try test.resolve(MutantApp.Screen.self).mailer.isFake)
        // Without the mutant the fake stands in only where nothing is registered.
        let plain = TestContainer(base: MutantApp.container())
        plain.fakes.register(MutantApp.Mailer.self) { MutantApp.Mailer(isFake: true) }
        #expect(try !plain.resolve(MutantApp.Mailer.self).isFake)
    }

    @Test func fakeAnswersWithAnInjectableTypesDefault() throws {
        let test = try testContainer("AppClock:fake")
        #expect(try test.resolve(MutantApp.AppClock.self).isDefault)
        #expect(try !TestContainer(base: MutantApp.container()).resolve(MutantApp.AppClock.self).isDefault)
    }

    @Test func fakeWithNoFakeToAnswerChangesNothing() throws {
        let test = try testContainer("Mailer:fake")
        #expect(try !test.resolve(MutantApp.Mailer.self).isFake)
        #expect(try test.resolve(MutantApp.Mailer.self) === test.resolve(MutantApp.Mailer.self))
    }

    @Test func aPlainContainerNeverMutates() throws {
        let container = try WiringMutant.$inTask.withValue(WiringMutant.parse("EventBus:unshare")) {
            let container = MutantApp.container()
            return try (container.resolve(MutantApp.EventBus.self), container.resolve(MutantApp.EventBus.self))
        }
        #expect(container.0 === container.1)
    }

    @Test func anotherKeyOrNoSuchKeyChangesNothing() throws {
        let test = try testContainer("NoSuchService:unregister")
        #expect(try test.resolve(MutantApp.Screen.self).bus === test.resolve(MutantApp.Screen.self).bus)
    }

    @Test func theValueParsesAsKeyAndKindSplitAtTheLastColon() throws {
        #expect(try WiringMutant.parse("EventBus:unshare") == WiringMutant(key: "EventBus", kind: .unshare))
        #expect(try WiringMutant.parse(#"Database (name: "primary"):fake"#) == WiringMutant(key: #"Database (name: "primary")"#, kind: .fake))
        #expect(WiringMutant(key: "Greeting (arguments: String)", kind: .unregister).description
            == "Greeting (arguments: String):unregister")
    }

    @Test(arguments: [
        ("EventBus", "no ':' separates the key from the kind"),
        (":unshare", "the key before ':' is empty"),
        ("EventBus:share", "\"share\" is no kind of mutant"),
    ])
    func aMalformedValueSaysWhatIsWrongAndHowToWriteIt(value: String, problem: String) {
        let error = #expect(throws: WiringMutant.ParseError.self) { try WiringMutant.parse(value) }
        #expect(error?.description == """
            WIRING_MUTANT=\(value.debugDescription) is not a mutant: \(problem). Write WIRING_MUTANT='<key>:<kind>', \
            the key as ServiceKey prints it and the kind one of unshare, unregister, fake \
            (e.g. WIRING_MUTANT='Database (name: "primary"):unshare'), or unset it
            """)
    }

    @Test func aHostileValueIsShownByItsEndsAndLength() {
        let value = String(repeating: "K", count: 100_000) + ":" + String(repeating: "k", count: 100_000)
        let error = #expect(throws: WiringMutant.ParseError.self) { try WiringMutant.parse(value) }
        let description = error?.description ?? ""
        #expect(description.count < 1_000, "\(description.count) characters")
        #expect(description.contains("(200001 characters)"))
        #expect(description.contains("(100000 characters) is no kind of mutant"))
    }
}

private extension TestContainer {
    func resolving<Service>(_ type: Service.Type) -> Service {
        // A failure here is the test's failure: the unmutated app always resolves.
        try! resolve(type)
    }
}

/// The cases a child process runs with `WIRING_MUTANT` in its environment.
private let mutantCases: [String: @Sendable () throws -> String] = [
    "mutant-from-environment": {
        let test = TestContainer(base: MutantApp.container())
        let shared = try test.resolve(MutantApp.EventBus.self) === test.resolve(MutantApp.EventBus.self)
        return shared ? "shared" : "unshared"
    }
]

/// The entry a child process runs: the case named in its environment, then exit.
final class WiringMutantChildEntry: XCTestCase {
    func testChildCase() throws {
        guard ChildProcess.requestedCase != nil else { throw XCTSkip("runs only in a child process") }
        ChildProcess.runRequestedCase(from: mutantCases)
    }
}

@Suite("WIRING_MUTANT in a test process", .enabled(if: ChildProcess.isSupported))
struct WiringMutantEnvironmentTests {
    private func run(_ mutant: String) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            "mutant-from-environment", entry: "WiringTestSupportTests.WiringMutantChildEntry/testChildCase", timeout: 60,
            environment: [WiringMutant.variable: mutant])
    }

    @Test(.timeLimit(.minutes(4)))
    func theVariableNamesTheMutantOfTheProcess() throws {
        let unshared = try run("EventBus:unshare")
        #expect(unshared.succeeded, "\(unshared)")
        #expect(unshared.result == "unshared", "\(unshared)")

        let other = try run("Mailer:unshare")
        #expect(other.result == "shared", "\(other)")
    }

    @Test(.timeLimit(.minutes(4)))
    func aMalformedVariableEndsTheProcessWithTheFix() throws {
        let outcome = try run("EventBus-unshare")
        #expect(!outcome.wasSignalled && outcome.status == 64, "\(outcome)")
        #expect(outcome.output.contains(
            #"error: WIRING_MUTANT="EventBus-unshare" is not a mutant: no ':' separates the key from the kind. Write"#),
            "\(outcome)")
        #expect(outcome.result == nil, "\(outcome)")
    }
}
