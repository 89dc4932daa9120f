import Testing
import Wiring
import WiringTestSupport

// A registration verifyWiring() could not build leaves the report incomplete, and the report
// says how to give it sample arguments; the suggestions of a missing registration's error are
// in the report too.

private final class SVGreeting {
    init(name: String = "", formal: Bool = false) {}
}
private final class SVClock {}
private final class SVDatabase {}
private final class SVRepository {
    init(database: SVDatabase) {}
}
private protocol SVLogger {}
private final class SVConsoleLogger: SVLogger {}
private final class SVFeed {
    init(logger: any SVLogger) {}
}
private let setup: StaticString = "App/Setup.swift"

@Suite struct StrictVerification {
    @Test func anUncheckedRegistrationMakesTheReportIncomplete() {
        let container = Container()
        container.register(SVClock.self, file: setup, line: 1) { _ in SVClock() }
        container.register(SVGreeting.self, name: "formal", file: setup, line: 2) { (_, name: String, formal: Bool) in
            SVGreeting(name: name, formal: formal)
        }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.isEmpty)
        #expect(report.unchecked == [ServiceKey(SVGreeting.self, name: "formal", arguments: String.self, Bool.self)])
        #expect(!report.isComplete)
        #expect(report.description == """
            Wiring: 1 registration checked, 0 problems, 1 unchecked (incomplete: 1 registration is unchecked)

            unchecked (not built, so not verified):
              SVGreeting (name: "formal", arguments: String, Bool) at App/Setup.swift:2: takes runtime arguments; to build it, give sample ones: `verifyWiring { samples in samples.add(SVGreeting.self, name: "formal", arguments: <String>, <Bool>) }`
            """)
    }

    @Test func theSampleTheReportShowsMakesItComplete() {
        let container = Container()
        container.register(SVClock.self) { _ in SVClock() }
        container.register(SVGreeting.self, name: "formal") { (_, name: String, formal: Bool) in
            SVGreeting(name: name, formal: formal)
        }

        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(SVGreeting.self, name: "formal", arguments: "Ada", true)
        }

        #expect(report.isComplete, "\(report)")
        #expect(report.description == "Wiring: 2 registrations checked, 0 problems, 0 unchecked")
    }

    @Test func theSummaryCountsEveryUncheckedRegistration() {
        let container = Container()
        container.register(SVGreeting.self) { (_, name: String) in SVGreeting(name: name) }
        container.registerAsync(SVDatabase.self) { _ in SVDatabase() }
        container.register(SVRepository.self) { r in try SVRepository(database: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        #expect(!report.isComplete)
        #expect(report.description.hasPrefix(
            "Wiring: 0 registrations checked, 0 problems, 3 unchecked (incomplete: 3 registrations are unchecked)\n\n"))
    }

    @Test func problemsAndUncheckedRegistrationsAreBothInTheSummary() {
        let container = Container()
        container.register(SVGreeting.self) { (_, name: String) in SVGreeting(name: name) }
        container.register(SVRepository.self) { r in try SVRepository(database: r.resolve()) }

        let report = TestContainer(base: container).verifyWiring()

        #expect(!report.isComplete)
        #expect(report.description.hasPrefix(
            "Wiring: 1 registration checked, 1 problem, 1 unchecked (incomplete: 1 registration is unchecked)\n\n"))
    }
}

@Suite struct ReportSuggestions {
    @Test func aMissingDependencyWithANameOneTypoAwaySaysDidYouMean() {
        let container = Container()
        container.register((any SVLogger).self, name: "console", file: setup, line: 1) { _ in SVConsoleLogger() }
        container.register(SVFeed.self, file: setup, line: 2) { r in
            try SVFeed(logger: r.resolve((any SVLogger).self, name: "consle"))
        }

        let report = TestContainer(base: container).verifyWiring()

        #expect(report.problems.map(\.identifier) == ["missing-dependency"])
        #expect(report.description == """
            Wiring: 2 registrations checked, 1 problem, 0 unchecked

            missing-dependency: no registration for SVLogger (name: "consle")
              path: SVFeed -> SVLogger (name: "consle")
              registered for SVLogger:
                SVLogger (name: "console")  at App/Setup.swift:1
              registered at: App/Setup.swift:2 (SVFeed)
              fix: did you mean "console"? If not, register it with `container.register(SVLogger.self, name: "consle") { r in … }`, or ask for one of the keys registered above.
            """)
    }

    @Test func aMissingDependencyWithOtherArgumentsShowsACallThatMatches() throws {
        let container = Container()
        container.register(SVGreeting.self) { (_, name: String) in SVGreeting(name: name) }
        container.register(SVFeed.self) { r in
            _ = try r.resolve(SVGreeting.self)
            return SVFeed(logger: SVConsoleLogger())
        }

        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(SVGreeting.self, arguments: "Ada")
        }

        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1)
        #expect(problem.fix == "SVGreeting is registered to take the runtime arguments (String), and this resolve passes none: resolve it as registered, as in `try r.resolve(SVGreeting.self, arguments: <String>)`.")
    }

    @Test func aSampleWithANameOneTypoAwaySaysDidYouMean() throws {
        let container = Container()
        container.register(SVGreeting.self, name: "formal") { (_, name: String) in SVGreeting(name: name) }

        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(SVGreeting.self, name: "fromal", arguments: "Ada")
        }

        let problem = try #require(report.problems.first)
        #expect(problem.identifier == "unused-sample")
        #expect(problem.fix == "did you mean \"formal\"? If not, give the sample the name and argument types of one of the keys registered above, or remove it.")
    }

    @Test func aSampleWithOtherArgumentsShowsTheSampleThatMatches() throws {
        let container = Container()
        container.register(SVGreeting.self, name: "formal") { (_, name: String, formal: Bool) in
            SVGreeting(name: name, formal: formal)
        }

        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(SVGreeting.self, name: "formal", arguments: "Ada")
        }

        let problem = try #require(report.problems.first)
        #expect(problem.identifier == "unused-sample")
        #expect(problem.fix == "SVGreeting (name: \"formal\") is registered to take the runtime arguments (String, Bool), and this sample passes (String): give it matching ones, as in `samples.add(SVGreeting.self, name: \"formal\", arguments: <String>, <Bool>)`, or remove it.")
    }
}
