import Foundation

// wiring-benchmarks [FILTER] [--quick] [--samples N] [--profile VARIANT [--iterations N]]
//
// Times each scenario four ways — hand-written code, Wiring, Swinject, swift-dependencies — and
// prints a Markdown table of median nanoseconds per operation ("n/a" where a scenario has no
// swift-dependencies counterpart), then the recording scenarios and a realistic app graph, timed
// a whole pass at a time. FILTER keeps the scenarios whose name contains it. `--quick` takes few,
// short samples and then checks the floors in `Floors.swift`, exiting 1 if one breaks (for CI).

/// `--quick`: enough for ratios that hold within a generous slack, in well under a minute.
let quickSamples = 7
let quickSampleMilliseconds = 15

let usage = """
    usage: wiring-benchmarks [FILTER] [--quick] [--samples N] [--profile VARIANT [--iterations N]]

      FILTER          run only the scenarios whose name contains this text (case-insensitive)
      --quick         for CI: \(quickSamples) samples of ~\(quickSampleMilliseconds) ms per variant, then check
                      the floors (ratios within one run, with \(slackPercent) slack); exits 1 if one
                      breaks
      --samples N     timed samples per variant, of ~30 ms each (default 15); the median is shown
      --profile V     no timing: run only variant V (hand-written, wiring, swinject or
                      swift-dependencies) of the selected scenarios, for a profiler such as perf
                      or callgrind; `recording` runs the TestContainer side of the recording
                      scenarios (and a warm pass of the app graph through a TestContainer)
      --iterations N  how often --profile runs each scenario (default 1000000; the app graph
                      runs a warm pass per 1,000)
      --setup         with --profile, the app graph makes and fills a container instead of
                      running a warm pass (one container per 1,000 iterations)
    """

struct Arguments {
    var filter: String?
    var quick = false
    var samplesGiven = false
    var options = MeasureOptions()
    var profiledVariant: Int?
    var profileIterations = 1_000_000
    var profilesSetup = false
}

func parseArguments(_ arguments: [String]) -> Arguments {
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
    var parsed = Arguments()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "-h", "--help":
            print(usage)
            exit(0)
        case "--quick":
            parsed.quick = true
        case "--samples":
            guard let value = remaining.popFirst(), let samples = Int(value), samples > 0 else {
                fail("--samples needs a positive number")
            }
            parsed.options.samples = samples
            parsed.samplesGiven = true
        case _ where argument.hasPrefix("--samples="):
            guard let samples = Int(argument.dropFirst("--samples=".count)), samples > 0 else {
                fail("--samples needs a positive number")
            }
            parsed.options.samples = samples
            parsed.samplesGiven = true
        case "--profile":
            let profilable = variantNames + [recordingVariant]
            guard let value = remaining.popFirst(),
                let index = profilable.firstIndex(where: { $0.caseInsensitiveCompare(value) == .orderedSame })
            else { fail("--profile needs one of: \(profilable.joined(separator: ", "))") }
            parsed.profiledVariant = index
        case "--setup":
            parsed.profilesSetup = true
        case "--iterations":
            guard let value = remaining.popFirst(), let iterations = Int(value), iterations > 0 else {
                fail("--iterations needs a positive number")
            }
            parsed.profileIterations = iterations
        case _ where argument.hasPrefix("-"):
            fail("unknown option \(argument)")
        default:
            guard parsed.filter == nil else { fail("only one filter, got \"\(parsed.filter!)\" and \"\(argument)\"") }
            parsed.filter = argument
        }
    }
    if parsed.quick {
        parsed.options.sampleTime = .milliseconds(quickSampleMilliseconds)
        if !parsed.samplesGiven { parsed.options.samples = quickSamples }
    }
    return parsed
}

let variantNames = ["hand-written", "Wiring", "Swinject", "swift-dependencies"]
/// Profiles the TestContainer side of the recording scenarios.
let recordingVariant = "recording"

func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func format(_ nanoseconds: Double) -> String {
    String(format: "%.1f", nanoseconds)
}

func ratio(_ numerator: Double, _ denominator: Double) -> String {
    guard denominator > 0, numerator.isFinite, denominator.isFinite else { return "n/a" }
    return String(format: "%.1fx", numerator / denominator)
}

struct Row {
    let scenario: String
    let handWritten: Double
    let wiring: Double
    let swinject: Double
    /// `nil` where the scenario has no swift-dependencies counterpart.
    let swiftDependencies: Double?
}

struct CheckFailed: Error, CustomStringConvertible {
    let scenario: String
    let variant: String
    var description: String { "\(scenario): the \(variant) variant does not make what the scenario expects" }
}

// MARK: Run

let runStart = ContinuousClock.now
let arguments = parseArguments(Array(CommandLine.arguments.dropFirst()))
func isSelected(_ name: String) -> Bool {
    arguments.filter.map { name.localizedCaseInsensitiveContains($0) } ?? true
}
let scenarios = allScenarios()
let selected = scenarios.filter { isSelected($0.name) }
let appSelected = isSelected(appScenarioName)
let verificationSelected = isSelected("verifyWiring")
let recordingNames = recordingScenarios().map(\.name)
guard !selected.isEmpty || appSelected || verificationSelected || recordingNames.contains(where: isSelected) else {
    progress("No scenario matches \"\(arguments.filter ?? "")\". Scenarios:")
    (scenarios.map(\.name) + [appScenarioName, "verifyWiring"]).forEach { progress("  \($0)") }
    exit(1)
}

#if DEBUG
let build = "debug build: NOT representative, run with `-c release`"
#else
let build = "release build (`-c release`)"
#endif

#if arch(x86_64)
let architecture = "x86_64"
#elseif arch(arm64)
let architecture = "arm64"
#else
let architecture = "unknown architecture"
#endif

var rows: [Row] = []

if let profiled = arguments.profiledVariant {
    do {
        // A warm pass of the app graph: Wiring, Swinject or through a recording TestContainer.
        let appVariant = [1: 0, 2: 1, variantNames.count: 2][profiled]
        if appSelected, let appVariant {
            let body = try appProfileBodies(setup: arguments.profilesSetup)[appVariant]
            // A pass is some 1,700 resolves: a thousandth of the iterations.
            let passes = max(1, arguments.profileIterations / 1000)
            let variant = profiled == variantNames.count ? "through a recording TestContainer" : variantNames[profiled]
            progress("\(appScenarioName): \(arguments.profilesSetup ? "container setup" : "a warm pass"), \(variant) × \(passes)")
            blackHole(try runLoop(passes, opaque(body)))
        }
        if profiled == variantNames.count {
            for (name, body) in recordingBodies(filter: arguments.filter) {
                progress("\(name): through a recording TestContainer × \(arguments.profileIterations)")
                blackHole(try runLoop(arguments.profileIterations, opaque(body)))
            }
            exit(0)
        }
        for scenario in selected {
            guard let body = try scenario.setUp().all[profiled] else {
                progress("\(scenario.name): no \(variantNames[profiled]) variant (n/a), skipped")
                continue
            }
            progress("\(scenario.name): \(variantNames[profiled]) × \(arguments.profileIterations)")
            blackHole(try runLoop(arguments.profileIterations, opaque(body)))
        }
    } catch {
        progress("error: \(error)")
        exit(1)
    }
    exit(0)
}

do {
    for scenario in selected {
        // The variants the scenario has, with their names; a missing one is reported as n/a.
        let variants = try scenario.setUp()
        let present = zip(variantNames, variants.all).compactMap { name, body in
            body.map { (name: name, body: $0) }
        }
        for (name, body) in present {
            guard try scenario.check(body) else { throw CheckFailed(scenario: scenario.name, variant: name) }
        }
        progress("\(scenario.name) …")
        let measurements = try measure(
            threads: scenario.threads, options: arguments.options, present.map(\.body))
        var medians: [String: Double] = [:]
        for ((name, _), measurement) in zip(present, measurements) {
            medians[name] = measurement.median
            progress(
                "  \(name.padding(toLength: 18, withPad: " ", startingAt: 0))"
                    + " median \(format(measurement.median)) ns/op"
                    + " (min \(format(measurement.minimum)), max \(format(measurement.maximum)))"
                    + ", \(measurement.iterations) iterations × \(measurement.nanosecondsPerOperation.count) samples")
        }
        rows.append(
            Row(
                scenario: scenario.name, handWritten: medians[variantNames[0]] ?? .nan,
                wiring: medians[variantNames[1]] ?? .nan, swinject: medians[variantNames[2]] ?? .nan,
                swiftDependencies: medians[variantNames[3]]))
    }
} catch {
    progress("error: \(error)")
    exit(1)
}

let processInfo = ProcessInfo.processInfo
print(
    """

    Machine: \(processInfo.activeProcessorCount) active of \(processInfo.processorCount) cores, \
    \(architecture), \(processInfo.operatingSystemVersionString)
    Build: \(build)
    Median of \(arguments.options.samples) samples of ~\(Int(arguments.options.sampleTime.nanoseconds / 1e6)) ms \
    per variant, after a warm-up; lower is better.
    """)
if arguments.quick {
    print("Quick run (--quick): for CI's floors. The README's tables come from a full run.")
}

if !rows.isEmpty {
    print(
        """

        swift-dependencies: "n/a" where a scenario has no counterpart in it.

        | Scenario | hand-written ns/op | Wiring ns/op | Swinject ns/op | swift-dependencies ns/op \
        | Wiring / hand | Swinject / Wiring | swift-dependencies / Wiring |
        | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
        """)
}
for row in rows {
    let cells = [
        row.scenario, format(row.handWritten), format(row.wiring), format(row.swinject),
        row.swiftDependencies.map(format) ?? "n/a",
        ratio(row.wiring, row.handWritten), ratio(row.swinject, row.wiring),
        row.swiftDependencies.map { ratio($0, row.wiring) } ?? "n/a",
    ]
    print("| " + cells.joined(separator: " | ") + " |")
}

var recording: [RecordingRow] = []
do {
    recording = try measureRecording(filter: arguments.filter, options: arguments.options)
    if !recording.isEmpty {
        print(
            """

            Recording: the same resolve through a `TestContainer` (trace on) and the container it wraps.

            | Scenario | Container ns/op | TestContainer ns/op | TestContainer / Container |
            | --- | ---: | ---: | ---: |
            """)
        for row in recording {
            let cells = [
                row.scenario, format(row.container), format(row.testContainer), ratio(row.testContainer, row.container),
            ]
            print("| " + cells.joined(separator: " | ") + " |")
        }
    }
} catch {
    progress("error: \(error)")
    exit(1)
}

if verificationSelected {
    progress("verifyWiring, 1,000 registrations …")
    let milliseconds = format(measureVerification(count: 1_000))
    print("\nverifyWiring() on 1,000 generated registrations: \(milliseconds) ms (median of 9 runs)")
}

var appRows: [AppRow] = []
if appSelected {
    do {
        // Its passes take the longest and vary the most (Swinject's cold pass most of all): a
        // quick run takes three times its samples of them, so that one slow patch of the
        // machine does not decide a floor.
        var appOptions = arguments.options
        if arguments.quick && !arguments.samplesGiven { appOptions.samples = quickSamples * 3 }
        let app = try measureApp(options: appOptions)
        appRows = app.rows
        let graph = app.graph
        print(
            """

            Realistic app graph: \(graph.count) registrations, made the same way in both libraries, in \
            \(AppGraph.layerSizes.count) layers: \(graph.scopeSummary). \(graph.rootNodes.count) roots, \
            \(graph.rootNodes.map { graph.depth(of: $0.index) }.min()!)–\
            \(graph.rootNodes.map { graph.depth(of: $0.index) }.max()!) services deep. \
            A pass resolves every registration once, in registration order: cold (a fresh container; \
            its setup not timed), \(app.cold); warm (the same container again), \(app.warm). \
            Plain factories in both: Swinject has no main-actor ones. µs per whole pass.

            | Pass | Wiring µs | Swinject µs | Swinject / Wiring |
            | --- | ---: | ---: | ---: |
            """)
        let descriptions = [
            "container setup": "container setup: make a container, register all \(graph.count)",
            "cold": "cold: resolve all \(graph.count) once, fresh container",
            "warm": "warm: resolve all \(graph.count) again, same container",
        ]
        for row in app.rows {
            let cells = [
                descriptions[row.pass] ?? row.pass, format(row.wiring / 1000), format(row.swinject / 1000),
                ratio(row.swinject, row.wiring),
            ]
            print("| " + cells.joined(separator: " | ") + " |")
        }
        print(
            """

            The warm pass through a recording `TestContainer(base:)` (trace on, dropped after each pass) and \
            through the plain container:

            | Pass | Container µs | TestContainer µs | TestContainer / Container |
            | --- | ---: | ---: | ---: |
            | warm: resolve all \(graph.count) again | \(format(app.container / 1000)) | \
            \(format(app.testContainer / 1000)) | \(ratio(app.testContainer, app.container)) |
            """)
    } catch {
        progress("error: \(error)")
        exit(1)
    }
}

// Uses the sink, so no timed work is dead code; never true in practice.
if sink == 0x5EED_5EED {
    print("(sink: \(sink))")
}

// The floors that compare two scenarios measure their Wiring variants again, side by side.
var sideBySide: [SideBySide: Double] = [:]
if arguments.quick {
    do {
        for pair in sideBySidePairs {
            guard let scenario = selected.first(where: { $0.name == pair.scenario }),
                let base = selected.first(where: { $0.name == pair.base }), scenario.threads == base.threads
            else { continue }
            progress("\(pair.scenario), next to \(pair.base): Wiring side by side, for the floors …")
            let bodies = [try scenario.setUp().wiring, try base.setUp().wiring]
            let measurements = try measure(threads: scenario.threads, options: arguments.options, bodies)
            sideBySide[pair] = measurements[0].median / measurements[1].median
        }
    } catch {
        progress("error: \(error)")
        exit(1)
    }
}

let measuring = runStart.duration(to: .now)
progress("Measured in \(String(format: "%.1f", measuring.nanoseconds / 1e9)) s.")

if arguments.quick {
    let checks = checkFloors(
        FloorInputs(
            rows: Dictionary(uniqueKeysWithValues: rows.map { ($0.scenario, $0) }),
            recording: Dictionary(uniqueKeysWithValues: recording.map { ($0.scenario, $0) }),
            app: Dictionary(uniqueKeysWithValues: appRows.map { (appPassName($0.pass), $0) }),
            sideBySide: sideBySide),
        scenarioOrder: rows.map(\.scenario), recordingOrder: recording.map(\.scenario))
    if reportFloors(checks) {
        exit(1)
    }
}
