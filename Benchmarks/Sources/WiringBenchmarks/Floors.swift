import Foundation

// The floors `--quick` checks, CI's guard against a performance regression. Each is a ratio of
// two medians of the same run (never an absolute time, which a shared machine moves by a third),
// checked with `floorSlack` of room for noise: a floor of "at least 6x" passes from 4.8x, one of
// "at most 3.5x" up to 4.38x. A real regression, a variant twice as slow, still breaks them.

/// How much a quick run's ratio may miss its floor by before the floor counts as broken: an
/// "at least" floor is divided by it, an "at most" floor multiplied.
let floorSlack = 1.25

/// Which measured rows a floor is checked on.
enum FloorSubject: Sendable {
    /// Every row of the main table that was run.
    case everyScenario
    /// Every row of the recording table that was run.
    case everyRecordingScenario
    /// One row, by scenario name.
    case scenario(String)
    /// Passes of the realistic app graph, by `AppRow.pass` ("container setup", "cold", "warm"),
    /// each checked under the name `appPassName` gives it.
    case appPasses([String])
    /// Wiring's ns/op in one scenario over that in another, measured again side by side
    /// (alternating sample by sample, like a scenario's variants) after the tables: two rows
    /// measured at different moments would carry the machine's swings into the ratio.
    case sideBySide(SideBySide)
}

/// Two scenarios whose Wiring variants a floor compares.
struct SideBySide: Hashable, Sendable {
    let scenario: String
    let base: String
}

enum FloorBound: Sendable {
    case atLeast(Double)
    case atMost(Double)

    func holds(_ ratio: Double, slack: Double) -> Bool {
        switch self {
        case .atLeast(let floor): ratio >= floor / slack
        case .atMost(let floor): ratio <= floor * slack
        }
    }

    /// "≥6.00x", or with the slack applied "≥4.80x".
    func description(slack: Double = 1) -> String {
        switch self {
        case .atLeast(let floor): String(format: "≥%.2fx", floor / slack)
        case .atMost(let floor): String(format: "≤%.2fx", floor * slack)
        }
    }
}

/// The medians of one run, by scenario name, for the floors to read.
struct FloorInputs {
    let rows: [String: Row]
    let recording: [String: RecordingRow]
    /// The realistic app graph's passes, by `appPassName`; empty where it did not run.
    let app: [String: AppRow]
    /// Wiring's ns/op in one scenario over that in another, measured side by side.
    let sideBySide: [SideBySide: Double]
}

struct Floor: Sendable {
    let subject: FloorSubject
    /// What the ratio is, as printed: "Swinject / Wiring".
    let ratio: String
    let bound: FloorBound
    /// Whether breaking it fails the run. A floor the library does not meet yet is checked and
    /// printed, as a warning, until the work that meets it lands.
    var enforced = true
    /// The ratio for the scenario of this name; `nil` where the scenario has no counterpart
    /// (a swift-dependencies ratio on an "n/a" row) or a row it needs did not run.
    let measure: @Sendable (FloorInputs, String) -> Double?

    /// Wiring's ns/op in `scenario` at most (or at least) `bound` times that in `base`, the two
    /// measured side by side.
    static func wiring(_ scenario: String, over base: String, _ bound: FloorBound, enforced: Bool = true) -> Floor {
        let pair = SideBySide(scenario: scenario, base: base)
        return Floor(
            subject: .sideBySide(pair), ratio: "Wiring ns/op / that of \"\(base)\", side by side", bound: bound,
            enforced: enforced
        ) { inputs, _ in inputs.sideBySide[pair] }
    }
}

/// The name a floor on a pass of the realistic app graph checks it under: "realistic app graph, cold".
func appPassName(_ pass: String) -> String { "\(appScenarioName), \(pass)" }

/// The pairs of scenarios the floors compare side by side, to measure after the tables.
var sideBySidePairs: [SideBySide] {
    floors.compactMap { floor in
        if case .sideBySide(let pair) = floor.subject { pair } else { nil }
    }
}

/// The floors, one entry per rule; `FloorSubject` expands an entry to the rows it covers.
let floors: [Floor] = [
    Floor(subject: .everyScenario, ratio: "Swinject / Wiring", bound: .atLeast(6)) { inputs, name in
        inputs.rows[name].map { $0.swinject / $0.wiring }
    },
    Floor(subject: .everyScenario, ratio: "swift-dependencies / Wiring", bound: .atLeast(2.5)) { inputs, name in
        inputs.rows[name].flatMap { row in row.swiftDependencies.map { $0 / row.wiring } }
    },
    Floor(subject: .scenario("transient chain A(B(C))"), ratio: "Wiring / hand-written", bound: .atMost(3.5)) {
        inputs, name in
        inputs.rows[name].map { $0.wiring / $0.handWritten }
    },
    Floor(subject: .scenario("cached container-scope singleton"), ratio: "Swinject / Wiring", bound: .atLeast(12)) {
        inputs, name in
        inputs.rows[name].map { $0.swinject / $0.wiring }
    },
    // Lookup does not grow with the number of registrations: within 20%.
    .wiring("one of 10,000 named registrations", over: "one of 10 named registrations", .atMost(1.2)),
    Floor(subject: .everyRecordingScenario, ratio: "TestContainer / Container", bound: .atMost(3.5)) { inputs, name in
        inputs.recording[name].map { $0.testContainer / $0.container }
    },
    // A named resolve costs at most 1.3x an unnamed one: its name is hashed once, cheaply, and
    // looked up in a table of named registrations beside the one of unnamed ones.
    .wiring("one of 10 named registrations", over: "transient, no dependencies", .atMost(1.3)),
    // A real app's graph: resolving it, cold or warm, well ahead of Swinject; building its
    // container no slower than Swinject's.
    Floor(subject: .appPasses(["cold", "warm"]), ratio: "Swinject / Wiring", bound: .atLeast(5)) { inputs, name in
        inputs.app[name].map { $0.swinject / $0.wiring }
    },
    Floor(subject: .appPasses(["container setup"]), ratio: "Swinject / Wiring", bound: .atLeast(1)) { inputs, name in
        inputs.app[name].map { $0.swinject / $0.wiring }
    },
]

/// One floor on one row, after the run.
struct FloorCheck {
    let floor: Floor
    let scenario: String
    let measured: Double

    /// Whether the ratio is within the floor with the slack: what fails the run if not.
    var holds: Bool { floor.bound.holds(measured, slack: floorSlack) }
    /// Whether it is within the floor itself.
    var holdsStrictly: Bool { floor.bound.holds(measured, slack: 1) }

    /// "ok", "ok, within slack only" or "BROKEN" ("missed" where not enforced).
    var status: String {
        holdsStrictly ? "ok" : holds ? "ok, within slack only" : floor.enforced ? "BROKEN" : "missed"
    }

    /// The status, and "(not yet enforced)" where it is not.
    var result: String { floor.enforced ? status : "\(status) (not yet enforced)" }

    /// "transient chain A(B(C)): Wiring / hand-written 4.60x, floor ≤3.50x (≤4.38x with 25% slack)".
    var description: String {
        "\(scenario): \(floor.ratio) \(String(format: "%.2fx", measured)), floor \(floor.bound.description())"
            + " (\(floor.bound.description(slack: floorSlack)) with \(slackPercent) slack)"
    }
}

let slackPercent = "\(Int(((floorSlack - 1) * 100).rounded()))%"

/// Every floor on every row it covers that was measured.
func checkFloors(_ inputs: FloorInputs, scenarioOrder: [String], recordingOrder: [String]) -> [FloorCheck] {
    floors.flatMap { floor -> [FloorCheck] in
        let names: [String]
        switch floor.subject {
        case .everyScenario: names = scenarioOrder
        case .everyRecordingScenario: names = recordingOrder
        case .scenario(let name): names = [name]
        case .appPasses(let passes): names = passes.map(appPassName)
        case .sideBySide(let pair): names = [pair.scenario]
        }
        return names.compactMap { name in
            floor.measure(inputs, name).map { FloorCheck(floor: floor, scenario: name, measured: $0) }
        }
    }
}

/// Prints the checks as a table and each broken floor as a line of its own; returns whether an
/// enforced floor broke.
func reportFloors(_ checks: [FloorCheck]) -> Bool {
    print(
        """

        Floors (--quick): ratios of this run's medians, checked with \(slackPercent) slack for a noisy \
        machine (a floor of ≥6x passes from \(String(format: "%.1fx", 6 / floorSlack)), one of ≤3.5x up to \
        \(String(format: "%.2fx", 3.5 * floorSlack))).

        | Scenario | Ratio | Measured | Floor | With slack | Result |
        | --- | --- | ---: | ---: | ---: | --- |
        """)
    for check in checks {
        let cells = [
            check.scenario, check.floor.ratio, String(format: "%.2fx", check.measured), check.floor.bound.description(),
            check.floor.bound.description(slack: floorSlack), check.result,
        ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
    print("")
    for check in checks where !check.floor.enforced {
        print("warning: floor not yet enforced: \(check.description): \(check.status)")
    }
    let broken = checks.filter { $0.floor.enforced && !$0.holds }
    for check in broken {
        print("error: floor broken: \(check.description)")
    }
    let enforced = checks.filter(\.floor.enforced).count
    let withinSlack = checks.filter { $0.floor.enforced && $0.holds && !$0.holdsStrictly }.count
    if broken.isEmpty {
        print(
            "All \(enforced) enforced floors hold"
                + (withinSlack > 0 ? " (\(withinSlack) of them only within the slack)." : "."))
    } else {
        print("\(broken.count) of \(enforced) enforced floors broken.")
        FileHandle.standardError.write(Data("wiring-benchmarks: \(broken.count) floor(s) broken, see above\n".utf8))
    }
    return !broken.isEmpty
}
