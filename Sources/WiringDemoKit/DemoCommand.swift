/// What the command line asks for: which app to wire, and what to print about it.
///
/// Parsed by hand from `CommandLine.arguments`, so the package keeps no dependencies.
struct DemoCommand: Equatable {
    /// Which app graph to build.
    enum App: Equatable {
        /// The shop app as it ships.
        case shop
        /// The shop app with one registration missing and one cycle (`--broken`).
        case brokenShop
    }

    /// What to print.
    enum Output: Equatable {
        /// Every section: registrations, what was resolved, the wiring report, the graph as text.
        case overview
        /// Only the dependency graph, as Mermaid (`--mermaid`).
        case mermaid
        /// Only the dependency graph, as Graphviz DOT (`--dot`).
        case dot
        /// Only the wiring manifest, the text a test keeps with `assertWiringSnapshot` (`--manifest`).
        case manifest
        /// The usage text (`--help`).
        case help
    }

    var app: App = .shop
    var output: Output = .overview

    /// Reads the arguments after the program's name.
    /// - Throws: ``DemoUsageError`` for an unknown option, or for two outputs at once.
    init(arguments: [String]) throws(DemoUsageError) {
        var chosenView: String?
        for argument in arguments {
            switch argument {
            case "-h", "--help":
                output = .help
                return
            case "--broken":
                app = .brokenShop
            case "--mermaid", "--dot", "--manifest":
                if let chosenView, chosenView != argument {
                    throw DemoUsageError("\(chosenView) and \(argument) cannot be combined: choose one view")
                }
                chosenView = argument
                output = switch argument {
                case "--mermaid": .mermaid
                case "--dot": .dot
                default: .manifest
                }
            default:
                throw DemoUsageError("unknown option '\(argument)'")
            }
        }
    }

    /// The text `--help` prints, and an unknown option prints to standard error.
    static let usage = """
        USAGE: wiring-demo [--broken] [--mermaid | --dot | --manifest]

        Wires a small shop app with Wiring: an HTTP client, a repository over a database,
        analytics trackers registered by name, a session scope, a view model that takes a
        runtime argument, a cart that is Injectable, one module per layer. It resolves the app
        through a TestContainer (from WiringTestSupport) and prints what happened.

        OPTIONS:
          (none)      Print four sections: the registrations; what was resolved, as the trace
                      tree; the wiring report of verifyWiring(), complete or every problem;
                      and the dependency graph as text.
          --mermaid   Print only the dependency graph, as a Mermaid flowchart.
          --dot       Print only the dependency graph, in Graphviz's DOT language:
                        swift run wiring-demo --dot | dot -Tsvg > shop.svg
          --manifest  Print only the wiring manifest: every registration, its scope, its file
                      and what it needs, and the problems; the text assertWiringSnapshot keeps.
          --broken    Wire the same app with one registration missing and one cycle, to show
                      the errors and the report they give. Combines with --mermaid, --dot or
                      --manifest.
          -h, --help  Print this help.

        The output is the same on every run: no addresses, no timings.
        """
}

/// A command line the demo does not understand.
struct DemoUsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, in one line.
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { "error: \(message)" }
}
