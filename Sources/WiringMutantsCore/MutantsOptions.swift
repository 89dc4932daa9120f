import Foundation

/// What `wiring-mutants` was asked to do, from its command line.
package struct MutantsOptions: Equatable, Sendable {
    /// The package whose tests run: `--package-path`, the current directory by default.
    package var packagePath = "."
    /// SwiftPM's build directory: `--scratch-path`, SwiftPM's default when `nil`.
    package var scratchPath: String?
    /// The test binary to run instead of building one: `--test-binary`.
    package var testBinary: String?
    /// The test targets to run, each by module name (`--target`, repeatable); every target when empty.
    package var targets: [String] = []
    /// The one registration to mutate, by key as coverage prints it: `--only`.
    package var only: String?
    /// The file of accepted survivors, one `<key>:<mutation>` a line: `--baseline`.
    package var baselinePath: String?
    /// Where to write the JSON report too: `--json`.
    package var jsonPath: String?
    /// Print the JSON report instead of the text one: `--format json`.
    package var printsJSON = false
    /// The least score that passes, from 0 to 100, fractions kept: `--fail-under`; without it
    /// the exit status ignores survivors.
    package var failUnder: Double?
    /// How many mutants run at once: `--jobs`, the machine's cores by default.
    package var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The most `--jobs` takes: each job is a test process, and a thread here waits on each.
    package static let mostJobs = 1024
    /// How long one mutant's run may take, in seconds, before it is cut and reported timed out:
    /// `--timeout`.
    package var timeout: Double = 120
    /// `--help`.
    package var showsHelp = false

    package init() {}

    /// Why a command line names no run, and what to write instead.
    package struct UsageError: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The options `arguments` (the command line without the program's name) give.
    package static func parse(_ arguments: [String]) throws(UsageError) -> MutantsOptions {
        var options = MutantsOptions()
        var remaining = arguments[...]
        func value(of flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(description: "\(flag) needs a value (see --help)")
            }
            return value
        }
        func number(of flag: String, atLeast least: Double) throws(UsageError) -> Double {
            let text = try value(of: flag)
            // Finite: a deadline of `inf` seconds from now is no date.
            guard let number = Double(text), number.isFinite, number >= least else {
                throw UsageError(description: "\(flag) \(text): write a number of at least \(Int(least))")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--package-path": options.packagePath = try value(of: argument)
            case "--scratch-path": options.scratchPath = try value(of: argument)
            case "--test-binary": options.testBinary = try value(of: argument)
            case "--target": options.targets.append(try value(of: argument))
            case "--only": options.only = try value(of: argument)
            case "--baseline": options.baselinePath = try value(of: argument)
            case "--json": options.jsonPath = try value(of: argument)
            case "--format":
                let format = try value(of: argument)
                guard format == "json" || format == "text" else {
                    throw UsageError(description: "--format \(format): write --format text or --format json")
                }
                options.printsJSON = format == "json"
            case "--fail-under":
                let text = try value(of: argument)
                // `Double` reads `inf` and `1e300` too: the range check keeps them out.
                guard let score = Double(text), score.isFinite, (0...100).contains(score) else {
                    throw UsageError(description: "--fail-under \(text): write a score from 0 to 100")
                }
                options.failUnder = score
            case "--jobs":
                let text = try value(of: argument)
                guard let jobs = Int(text), (1...mostJobs).contains(jobs) else {
                    throw UsageError(description: "--jobs \(text): write a whole number from 1 to \(mostJobs)")
                }
                options.jobs = jobs
            case "--timeout": options.timeout = try number(of: argument, atLeast: 1)
            case "--help", "-h": options.showsHelp = true
            default:
                throw UsageError(description: "unknown argument \(argument.debugDescription) (see --help)")
            }
        }
        return options
    }

    /// What `--help` prints.
    package static let usage = """
        USAGE: swift run wiring-mutants [options]

        Runs your tests against mutants of your app's wiring, one registration and one mutation
        at a time, and reports which mutants no test noticed:
          unshare     a kept registration (.container, .weak, .graph, a custom scope) makes a new
                      instance on every resolve
          unregister  the registration is gone, as if its module forgot it
          fake        the registration answers with the test container's fake, or the
                      Injectable type's default, where one exists
        It builds the tests once, runs them once to learn which tests resolved which
        registration, then runs only those tests against each mutant.

        OPTIONS:
          --target <module>     Run this test target only (repeatable); every target by default.
          --only <key>          Mutate this registration only, its key as the coverage prints it.
          --baseline <file>     Accepted survivors, one <key>:<mutation> a line ('#' comments).
          --json <file>         Write the JSON report there too.
          --format text|json    What to print: the text report (default) or the JSON.
          --fail-under <score>  Exit with status 1 when the score is below it (0 to 100,
                                fractions too: 66.5).
          --jobs <n>            Mutants run at once (1 to 1024); the machine's cores by default.
          --timeout <seconds>   How long one mutant's run may take (default 120).
          --package-path <dir>  The package to test (default: the current directory).
          --scratch-path <dir>  SwiftPM's build directory, as for swift build.
          --test-binary <path>  Run this built test binary instead of building (Linux).
          --help                Show this help.
        """
}
