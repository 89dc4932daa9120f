import Testing
import WiringSwiftTesting

// assertWiringComplete fails while a registration is left unchecked, showing the samples that
// would get it built.

private final class SWGreeting {
    init(name: String = "", formal: Bool = false) {}
}

@Suite struct StrictWiringAssertionTests {
    @Test func failsOnAnUncheckedRegistrationShowingTheSample() {
        let container = Container()
        container.register(SWGreeting.self, file: "App/Setup.swift", line: 1) { (_, name: String) in SWGreeting(name: name) }
        container.register(SWGreeting.self, name: "formal", file: "App/Setup.swift", line: 2) {
            (_, name: String, formal: Bool) in SWGreeting(name: name, formal: formal)
        }
        let line = #line + 1
        let failures = expectFailures { assertWiringComplete(container) }

        #expect(failures.map(\.line) == [line])
        let report = """
            Wiring: 0 registrations checked, 0 problems, 2 unchecked (incomplete: 2 registrations are unchecked)

            unchecked (not built, so not verified):
              SWGreeting (arguments: String) at App/Setup.swift:1: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(SWGreeting.self, arguments: <String>) }`
              SWGreeting (name: "formal", arguments: String, Bool) at App/Setup.swift:2: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(SWGreeting.self, name: "formal", arguments: <String>, <Bool>) }`
            """
        #expect("\(TestContainer(base: container).verifyWiring())" == report)
        #expect(failures.first?.message == "the wiring is incomplete:\n" + indented(report) + """

            fix: give sample arguments to the assertion, `assertWiringComplete(…) { samples in samples.add(SWGreeting.self, arguments: <String>); samples.add(SWGreeting.self, name: "formal", arguments: <String>, <Bool>) }`
            """)
    }

    @Test func passesOnceEveryRegistrationHasASample() {
        let container = Container()
        container.register(SWGreeting.self) { (_, name: String) in SWGreeting(name: name) }
        container.register(SWGreeting.self, name: "formal") { (_, name: String, formal: Bool) in
            SWGreeting(name: name, formal: formal)
        }
        assertWiringComplete(TestContainer(base: container)) { samples in
            samples.add(SWGreeting.self, arguments: "Ada")
            samples.add(SWGreeting.self, name: "formal", arguments: "Ada", true)
        }
    }

    @Test func failsOnARegistrationThatMustBeAwaited() {
        let container = Container()
        container.registerAsync(SWGreeting.self) { _ in SWGreeting() }
        let failures = expectFailures { assertWiringComplete(container) }

        #expect(failures.count == 1)
        let message = failures.first?.message ?? ""
        #expect(message.contains("(incomplete: 1 registration is unchecked)"))
        #expect(message.contains("its factory must be awaited"))
        #expect(!message.contains("fix: give sample arguments"))
    }

    @Test func theAsyncAssertionBuildsWhatMustBeAwaited() async {
        let container = Container()
        container.registerAsync(SWGreeting.self) { _ in SWGreeting() }
        await assertWiringCompleteAsync(TestContainer(base: container))
    }

    @Test func theAsyncAssertionFailsAtItsLineOnASynchronousFactoryNeedingAnAwaitedOne() async {
        final class SWCard {
            init(greeting: SWGreeting) {}
        }
        let container = Container()
        container.registerAsync(SWGreeting.self) { _ in SWGreeting() }
        container.register(SWCard.self) { r in try SWCard(greeting: r.resolve()) }
        let location = SourceLocation(fileID: "App/CardTests.swift", filePath: "/App/CardTests.swift", line: 7, column: 1)
        let failures = await expectFailures {
            await assertWiringCompleteAsync(TestContainer(base: container), sourceLocation: location)
        }

        #expect(failures.map(\.line) == [7])
        #expect(failures.first?.message.contains("requires-await: the factory of SWGreeting is async") == true)
        #expect(failures.first?.message.contains("path: SWCard -> SWGreeting") == true)
    }
}
