import Foundation
import Testing
import WiringMutantsCore

// The report wiring-mutants prints: its score, its text and its JSON, which decodes back.

@Suite("The wiring-mutants report")
struct MutantsReportTests {
    static let mutants = [
        MutantsReport.Mutant(
            key: "EventBus", scope: ".container", file: "App/Setup.swift", line: 10, mutation: .unshare, outcome: .killed,
            killedBy: "AppTests.testBus", tests: ["AppTests.testBus"]),
        MutantsReport.Mutant(
            key: "Mailer", scope: ".container", file: "App/Setup.swift", line: 11, mutation: .unshare, outcome: .survived,
            tests: ["AppTests.testMail"], reproduce: "WIRING_MUTANT='Mailer:unshare' swift test --filter '^App\\.AppTests/testMail'"),
        MutantsReport.Mutant(
            key: "Mailer", scope: ".container", file: "App/Setup.swift", line: 11, mutation: .unregister,
            outcome: .caughtByVerification, killedBy: "AppTests.testWiring", tests: ["AppTests.testWiring"]),
        MutantsReport.Mutant(
            key: "Audit", scope: ".container", file: "App/Setup.swift", line: 12, mutation: .unregister, outcome: .notCovered),
        MutantsReport.Mutant(
            key: "Greeter (name: \"en\")", scope: ".transient", file: "App/Setup.swift", line: 13, mutation: .fake,
            outcome: .survived, tests: ["AppTests.testGreeting"], accepted: true, reproduce: "WIRING_MUTANT=… swift test"),
        MutantsReport.Mutant(
            key: "Ticker", scope: ".weak", file: "App/Setup.swift", line: 14, mutation: .unshare, outcome: .timedOut,
            tests: ["AppTests.testTicker"], reproduce: "WIRING_MUTANT='Ticker:unshare' swift test --filter '^App\\.AppTests/testTicker'"),
    ]

    @Test func theScoreCountsWhatWasNoticedAmongWhatTheBaselineDoesNotAccept() {
        let report = MutantsReport(mutants: Self.mutants)
        // Killed, caught and timed out: 3 of the 5 not accepted.
        #expect(report.score == 60)
        #expect(report.summary == "score: 60% of 5 mutants killed")
        #expect(report.totals == MutantsReport.Totals(
            mutants: 6, killed: 1, caughtByVerification: 1, survived: 1, accepted: 1, notCovered: 1, timedOut: 1))
        #expect(MutantsReport(mutants: []).summary == "score: 100% of 0 mutants killed")
    }

    @Test func theTextListsEachRegistrationWithItsMutantsAndHowToReproduceASurvivor() {
        #expect(MutantsReport(mutants: Self.mutants).render() == #"""
            EventBus [.container] at App/Setup.swift:10
              unshare     killed by AppTests.testBus

            Mailer [.container] at App/Setup.swift:11
              unshare     survived: no test failed of AppTests.testMail
                          reproduce: WIRING_MUTANT='Mailer:unshare' swift test --filter '^App\.AppTests/testMail'
              unregister  caught by verification in AppTests.testWiring

            Audit [.container] at App/Setup.swift:12
              unregister  not covered: no test resolved it

            Greeter (name: "en") [.transient] at App/Setup.swift:13
              fake        survived (accepted in the baseline): no test failed of AppTests.testGreeting

            Ticker [.weak] at App/Setup.swift:14
              unshare     timed out: cut at the time limit, running AppTests.testTicker
                          reproduce: WIRING_MUTANT='Ticker:unshare' swift test --filter '^App\.AppTests/testTicker'

            6 mutants: 1 killed, 1 caught by verification, 1 timed out, 1 survived, 1 accepted, 1 not covered
            score: 60% of 5 mutants killed
            """#)
    }

    @Test func theJSONRoundTrips() throws {
        let report = MutantsReport(mutants: Self.mutants)
        let json = try report.renderJSON()
        #expect(try MutantsReport.decode(Data(json.utf8)) == report)
        #expect(json.contains(#""outcome" : "caught-by-verification""#), "\(json)")
        #expect(json.contains(#""format" : "wiring-mutants""#), "\(json)")
        #expect(json.contains(#""summary" : "score: 60% of 5 mutants killed""#), "\(json)")
    }
}
