import Foundation

/// What `wiring-mutants` found: for every registration and every mutation that applies to it,
/// whether a test noticed. Text for people, JSON for tools; the JSON decodes back to the same report.
package struct MutantsReport: Codable, Equatable, Sendable {
    /// What became of one mutant.
    package enum Outcome: String, Codable, Sendable, CaseIterable {
        /// A test the mutant's registration reached failed.
        case killed
        /// Only a whole-graph check (`verifyWiring`, `wiringManifest`) failed.
        case caughtByVerification = "caught-by-verification"
        /// Every test that resolved the registration passed.
        case survived
        /// No test resolved the registration, so none ran.
        case notCovered = "not-covered"
        /// The run went past its time limit and was cut.
        case timedOut = "timed-out"

        /// How the text report says it.
        var text: String {
            switch self {
            case .killed: "killed"
            case .caughtByVerification: "caught by verification"
            case .survived: "survived"
            case .notCovered: "not covered"
            case .timedOut: "timed out"
            }
        }
    }

    /// One mutant and what became of it.
    package struct Mutant: Codable, Equatable, Sendable {
        package let key: String
        package let scope: String
        package let file: String
        package let line: Int
        package let mutation: Mutation
        package let outcome: Outcome
        /// The test that failed first, for a killed one (or a caught one: the verifying test).
        package var killedBy: String?
        /// The tests that ran against it: those that resolved or verified the registration.
        package var tests: [String]
        /// Whether the baseline accepts it as a survivor: not counted in the score.
        package var accepted: Bool?
        /// The one command that runs its tests against it, for a survivor or a timed-out one.
        package var reproduce: String?

        package init(
            key: String, scope: String, file: String, line: Int, mutation: Mutation, outcome: Outcome,
            killedBy: String? = nil, tests: [String] = [], accepted: Bool? = nil, reproduce: String? = nil
        ) {
            (self.key, self.scope, self.file, self.line, self.mutation, self.outcome) = (key, scope, file, line, mutation, outcome)
            (self.killedBy, self.tests, self.accepted, self.reproduce) = (killedBy, tests, accepted, reproduce)
        }

        /// `Mailer:unshare`, as `WIRING_MUTANT` and the baseline write it.
        package var name: String { "\(key):\(mutation.rawValue)" }
    }

    /// How many mutants ended each way.
    package struct Totals: Codable, Equatable, Sendable {
        package var mutants = 0
        package var killed = 0
        package var caughtByVerification = 0
        package var survived = 0
        package var accepted = 0
        package var notCovered = 0
        package var timedOut = 0

        package init(
            mutants: Int = 0, killed: Int = 0, caughtByVerification: Int = 0, survived: Int = 0, accepted: Int = 0,
            notCovered: Int = 0, timedOut: Int = 0
        ) {
            (self.mutants, self.killed, self.caughtByVerification, self.survived) = (mutants, killed, caughtByVerification, survived)
            (self.accepted, self.notCovered, self.timedOut) = (accepted, notCovered, timedOut)
        }
    }

    package var format = "wiring-mutants"
    package var version = 1
    package let summary: String
    /// The share of mutants noticed (killed, caught by verification or timed out) among those
    /// the baseline does not accept, as a whole percentage rounded down; 100 with none.
    package let score: Int
    package let totals: Totals
    package let mutants: [Mutant]

    /// Whether the score is below `least` (`--fail-under`, fractions kept): the score as the
    /// report prints it, rounded down, so a run never passes a bound its printed score is below.
    package func isBelow(_ least: Double) -> Bool {
        Double(score) < least
    }

    /// The report of `mutants`, in the order given.
    package init(mutants: [Mutant]) {
        var totals = Totals()
        for mutant in mutants {
            totals.mutants += 1
            switch mutant.outcome {
            case .killed: totals.killed += 1
            case .caughtByVerification: totals.caughtByVerification += 1
            case .survived:
                if mutant.accepted == true { totals.accepted += 1 } else { totals.survived += 1 }
            case .notCovered: totals.notCovered += 1
            case .timedOut: totals.timedOut += 1
            }
        }
        let counted = totals.mutants - totals.accepted
        let noticed = totals.killed + totals.caughtByVerification + totals.timedOut
        score = counted == 0 ? 100 : noticed * 100 / counted
        let noun = counted == 1 ? "mutant" : "mutants"
        summary = "score: \(score)% of \(counted) \(noun) killed"
        self.totals = totals
        self.mutants = mutants
    }

    /// The JSON, keys sorted, one field a line.
    package func renderJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report `renderJSON()` wrote.
    package static func decode(_ data: Data) throws -> MutantsReport {
        try JSONDecoder().decode(MutantsReport.self, from: data)
    }

    /// The text: each registration with its mutants, then the totals and the summary line.
    ///
    /// ```
    /// Mailer [.container] at App/Setup.swift:11
    ///   unshare     survived: no test failed of SignupTests.testWelcomeMail
    ///               reproduce: WIRING_MUTANT='Mailer:unshare' swift test --filter '^App\.SignupTests/testWelcomeMail'
    ///   unregister  killed by SignupTests.testWelcomeMail
    /// ```
    package func render() -> String {
        var lines: [String] = []
        var title: String?
        for mutant in mutants {
            let registration = "\(mutant.key) [\(mutant.scope)] at \(mutant.file):\(mutant.line)"
            if registration != title {
                if title != nil { lines.append("") }
                lines.append(registration)
                title = registration
            }
            let label = "  " + mutant.mutation.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            let indent = String(repeating: " ", count: label.count)
            switch mutant.outcome {
            case .killed:
                lines.append(label + "killed by " + (mutant.killedBy ?? "a failure no test was named for"))
            case .caughtByVerification:
                lines.append(label + "caught by verification in " + (mutant.killedBy ?? "a whole-graph check"))
            case .survived:
                let accepted = mutant.accepted == true ? " (accepted in the baseline)" : ""
                lines.append(label + "survived\(accepted): no test failed of " + Self.names(mutant.tests))
            case .notCovered:
                lines.append(label + "not covered: no test resolved it")
            case .timedOut:
                lines.append(label + "timed out: cut at the time limit, running " + Self.names(mutant.tests))
            }
            if let reproduce = mutant.reproduce, mutant.accepted != true {
                lines.append(indent + "reproduce: " + reproduce)
            }
        }
        if !lines.isEmpty { lines.append("") }
        let counts: [(Int, String)] = [
            (totals.killed, "killed"), (totals.caughtByVerification, "caught by verification"),
            (totals.timedOut, "timed out"), (totals.survived, "survived"), (totals.accepted, "accepted"),
            (totals.notCovered, "not covered"),
        ]
        let parts = counts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        lines.append("\(totals.mutants) mutant\(totals.mutants == 1 ? "" : "s")" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")))
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// At most three names, then how many more.
    private static func names(_ tests: [String]) -> String {
        guard !tests.isEmpty else { return "no test" }
        let shown = tests.prefix(3).joined(separator: ", ")
        return tests.count > 3 ? "\(shown) and \(tests.count - 3) more" : shown
    }
}
