import Foundation

/// `wiring-mutants`: parses the command line, runs, prints the report, and says by its exit
/// status whether the run passed: 0, or 1 below `--fail-under`, 2 for a wrong command line,
/// 3 when the run could not be made.
package enum MutantsCommand {
    package static func main(_ arguments: [String]) -> Int32 {
        let options: MutantsOptions
        do {
            options = try MutantsOptions.parse(arguments)
        } catch {
            printError("error: \(error)")
            return 2
        }
        if options.showsHelp {
            print(MutantsOptions.usage)
            return 0
        }
        do {
            let runner = MutantsRunner(options: options, isTerminal: isatty(STDERR_FILENO) == 1) { text in
                FileHandle.standardError.write(Data(text.utf8))
            }
            let report = try runner.run()
            let json = try report.renderJSON()
            if let path = options.jsonPath {
                try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            }
            print(options.printsJSON ? json : report.render())
            if let least = options.failUnder, report.isBelow(least) {
                let bound = least == least.rounded() ? String(Int(least)) : String(least)
                printError("wiring-mutants: the score \(report.score)% is below --fail-under \(bound)")
                return 1
            }
            return 0
        } catch {
            printError("error: \(error)")
            return 3
        }
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
