import Foundation
import Testing
import WiringMutantsCore
import WiringTestHelpers

// wiring-mutants on the fixture app (Tests/MutantsFixtureTests), through this very test binary,
// which holds the fixture's tests: each outcome occurs, exactly where the fixture was written
// for it, and the run that hangs is cut at its time limit.

@Suite("wiring-mutants on the fixture app", .enabled(if: ChildProcess.isSupported))
struct FixtureRunTests {
    private static func options(only: String? = nil) -> MutantsOptions {
        var options = MutantsOptions()
        options.testBinary = CommandLine.arguments[0]
        options.targets = ["MutantsFixtureTests"]
        options.only = only
        options.jobs = 2
        // The fixture's runs take well under a second; the hung one is cut at this.
        options.timeout = 8
        return options
    }

    static let report = #"""
        PaymentGateway [.container] at FixtureApp/Checkout.swift:20
          unshare     survived: no test failed of FixtureAppTests.testCheckoutWiringIsComplete
                      reproduce: WIRING_MUTANT='PaymentGateway:unshare' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testCheckoutWiringIsComplete'
          unregister  caught by verification in FixtureAppTests.testCheckoutWiringIsComplete

        Checkout [.transient] at FixtureApp/Checkout.swift:21
          unregister  survived: no test failed of FixtureAppTests.testCheckoutWiringIsComplete
                      reproduce: WIRING_MUTANT='Checkout:unregister' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testCheckoutWiringIsComplete'

        EventBus [.container] at FixtureApp/Setup.swift:10
          unshare     killed by FixtureAppTests.testScreensShareOneBus
          unregister  killed by FixtureAppTests.testScreensShareOneBus

        Mailer [.container] at FixtureApp/Setup.swift:11
          unshare     survived: no test failed of FixtureAppTests.testWelcomeMailIsDelivered
                      reproduce: WIRING_MUTANT='Mailer:unshare' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testWelcomeMailIsDelivered'
          unregister  killed by FixtureAppTests.testWelcomeMailIsDelivered
          fake        killed by FixtureAppTests.testWelcomeMailIsDelivered

        AuditLog [.container] at FixtureApp/Setup.swift:12
          unshare     not covered: no test resolved it
          unregister  not covered: no test resolved it

        Ticker [.container] at FixtureApp/Setup.swift:13
          unshare     timed out: cut at the time limit, running FixtureAppTests.testTickerIsSharedByItsReaders
                      reproduce: WIRING_MUTANT='Ticker:unshare' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testTickerIsSharedByItsReaders'
          unregister  killed by FixtureAppTests.testTickerIsSharedByItsReaders

        GreetingFormatter [.transient] at FixtureApp/Setup.swift:14
          unregister  survived: no test failed of FixtureAppTests.testGreetingNamesThePerson
                      reproduce: WIRING_MUTANT='GreetingFormatter:unregister' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testGreetingNamesThePerson'
          fake        survived: no test failed of FixtureAppTests.testGreetingNamesThePerson
                      reproduce: WIRING_MUTANT='GreetingFormatter:fake' swift test --filter '^MutantsFixtureTests\.FixtureAppTests/testGreetingNamesThePerson'

        14 mutants: 5 killed, 1 caught by verification, 1 timed out, 5 survived, 2 not covered
        score: 50% of 14 mutants killed
        """#

    @Test(.timeLimit(.minutes(4)))
    func theFixtureReportsEachOutcomeWhereItWasWrittenFor() throws {
        let lines = LockedLines()
        let report = try MutantsRunner(options: Self.options()) { lines.append($0) }.run()

        #expect(report.render() == Self.report)
        #expect(try MutantsReport.decode(Data(report.renderJSON().utf8)) == report)
        // Progress, as plain lines where there is no terminal: the last says all are done.
        #expect(lines.text.contains("wiring-mutants: 14 mutants of 7 registrations, 12 to run, 2 at a time\n"), "\(lines.text)")
        #expect(lines.text.contains("[12/12] 7 killed, "), "\(lines.text)")
    }

    @Test(.timeLimit(.minutes(4)))
    func onlyRunsTheMutantsOfOneRegistration() throws {
        let report = try MutantsRunner(options: Self.options(only: "Mailer")) { _ in }.run()
        #expect(report.mutants.map(\.name) == ["Mailer:unshare", "Mailer:unregister", "Mailer:fake"])
        #expect(report.mutants.map(\.outcome) == [.survived, .killed, .killed])

        let unknown = #expect(throws: MutantsRunner.Failure.self) {
            try MutantsRunner(options: Self.options(only: "Maler")) { _ in }.run()
        }
        #expect(unknown?.description.hasPrefix(#"no registration "Maler" in the coverage; --only takes a key as the report prints it: "#) == true)
    }
}

/// What the runner logged, from its worker threads.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined() } }
}

@Suite("The Mutants article")
struct MutantsArticleTests {
    /// The report the article shows is the fixture's, as the runner prints it.
    @Test func theArticleShowsTheFixturesReport() throws {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestSupport/WiringTestSupport/Documentation.docc/Mutants.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        #expect(text.contains("```text\n" + FixtureRunTests.report + "\n```\n"))
    }
}
