import Wiring
import WiringTestSupport

/// The `wiring-demo` command: parses its arguments, wires the shop app and renders what the
/// test container saw.
///
/// ```swift
/// let result = Demo.run(arguments: ["--mermaid"])
/// print(result.standardOutput)
/// ```
public enum Demo {
    /// The exit status for a command line the demo does not understand (`EX_USAGE`).
    static let usageExitCode: Int32 = 64

    /// Runs the demo for the arguments after the program's name, without printing anything.
    /// - Parameter arguments: Such as `["--broken", "--dot"]`.
    /// - Returns: The output, the error output and the exit status of the run.
    public static func run(arguments: [String]) -> DemoResult {
        let command: DemoCommand
        do {
            command = try DemoCommand(arguments: arguments)
        } catch {
            return DemoResult(
                standardError: "\(error)\n\n\(DemoCommand.usage)", exitCode: usageExitCode)
        }
        if command.output == .help {
            return DemoResult(standardOutput: DemoCommand.usage)
        }
        let tour = switch command.app {
        case .shop: ShopTour.shop()
        case .brokenShop: ShopTour.brokenShop()
        }
        let output = switch command.output {
        case .mermaid: tour.test.dependencyGraph().mermaid
        case .dot: tour.test.dependencyGraph().dot
        case .manifest: tour.wiringManifest().render()
        case .overview, .help: DemoReport(tour: tour).render()
        }
        return DemoResult(standardOutput: output)
    }
}
