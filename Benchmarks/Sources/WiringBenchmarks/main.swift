import Foundation

// wiring-benchmarks [FILTER] [--samples N] [--profile VARIANT [--iterations N]]
//
// Times each scenario four ways — hand-written code, Wiring, Swinject, swift-dependencies — and
// prints a Markdown table of median nanoseconds per operation ("n/a" where a scenario has no
// swift-dependencies counterpart). FILTER keeps the scenarios whose name contains it.

let usage = """
    usage: wiring-benchmarks [FILTER] [--samples N] [--profile VARIANT [--iterations N]]

      FILTER          run only the scenarios whose name contains this text (case-insensitive)
      --samples N     timed samples per variant, of ~30 ms each (default 15); the median is shown
      --profile V     no timing: run only variant V (hand-written, wiring, swinject or
                      swift-dependencies) of the selected scenarios, for a profiler such as perf
                      or callgrind; `recording` runs the TestContainer side of the recording
                      scenarios
      --iterations N  how often --profile runs each scenario (default 1000000)
    """

struct Arguments {
    var filter: String?
    var options = MeasureOptions()
    var profiledVariant: Int?
    var profileIterations = 1_000_000
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
        case "--samples":
            guard let value = remaining.popFirst(), let samples = Int(value), samples > 0 else {
                fail("--samples needs a positive number")
            }
            parsed.options.samples = samples
        case _ where argument.hasPrefix("--samples="):
            guard let samples = Int(argument.dropFirst("--samples=".count)), samples > 0 else {
                fail("--samples needs a positive number")
            }
            parsed.options.samples = samples
        case "--profile":
            let profilable = variantNames + [recordingVariant]
            guard let value = remaining.popFirst(),
                let index = profilable.firstIndex(where: { $0.caseInsensitiveCompare(value) == .orderedSame })
            else { fail("--profile needs one of: \(profilable.joined(separator: ", "))") }
            parsed.profiledVariant = index
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

let arguments = parseArguments(Array(CommandLine.arguments.dropFirst()))
let scenarios = allScenarios()
let selected = scenarios.filter { scenario in
    arguments.filter.map { scenario.name.localizedCaseInsensitiveContains($0) } ?? true
}
guard !selected.isEmpty else {
    progress("No scenario matches \"\(arguments.filter ?? "")\". Scenarios:")
    scenarios.forEach { progress("  \($0.name)") }
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

    swift-dependencies: "n/a" where a scenario has no counterpart in it.

    | Scenario | hand-written ns/op | Wiring ns/op | Swinject ns/op | swift-dependencies ns/op \
    | Wiring / hand | Swinject / Wiring | swift-dependencies / Wiring |
    | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
    """)
for row in rows {
    let cells = [
        row.scenario, format(row.handWritten), format(row.wiring), format(row.swinject),
        row.swiftDependencies.map(format) ?? "n/a",
        ratio(row.wiring, row.handWritten), ratio(row.swinject, row.wiring),
        row.swiftDependencies.map { ratio($0, row.wiring) } ?? "n/a",
    ]
    print("| " + cells.joined(separator: " | ") + " |")
}

do {
    let recording = try measureRecording(filter: arguments.filter, options: arguments.options)
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

if arguments.filter.map({ "verifyWiring".localizedCaseInsensitiveContains($0) }) ?? true {
    progress("verifyWiring, 1,000 registrations …")
    print("\nverifyWiring() on 1,000 generated registrations: \(format(measureVerification(count: 1_000))) ms (median of 9 runs)")
}

// Uses the sink, so no timed work is dead code; never true in practice.
if sink == 0x5EED_5EED {
    print("(sink: \(sink))")
}
