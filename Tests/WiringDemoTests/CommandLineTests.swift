import Testing
import WiringDemoKit

@Suite struct CommandLine {
    @Test(arguments: [["--help"], ["-h"], ["--broken", "--help"]])
    func helpExplainsEveryFlagOnStandardOutput(arguments: [String]) {
        let result = Demo.run(arguments: arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        for flag in ["--mermaid", "--dot", "--manifest", "--broken", "--help"] {
            #expect(result.standardOutput.contains(flag))
        }
    }

    @Test func anUnknownFlagPrintsUsageToStandardErrorAndFails() {
        let result = Demo.run(arguments: ["--verbose"])
        #expect(result.exitCode != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: unknown option '--verbose'"))
        #expect(result.standardError.contains("USAGE: wiring-demo"))
    }

    @Test func twoGraphFormatsAtOnceAreAUsageError() {
        let result = Demo.run(arguments: ["--mermaid", "--dot"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.hasPrefix("error: --mermaid and --dot cannot be combined"))
    }

    @Test func theManifestIsAViewOfItsOwn() {
        let result = Demo.run(arguments: ["--dot", "--manifest"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.hasPrefix("error: --dot and --manifest cannot be combined: choose one view\n"))
    }

    @Test func brokenCombinesWithTheManifest() {
        let result = Demo.run(arguments: ["--broken", "--manifest"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("Wiring manifest: 9 registrations, 1 implicit type, 2 problems, 0 unchecked\n"))
        #expect(result.standardOutput.contains("  needs Database (name: \"replica\") (missing)\n"))
    }

    @Test func brokenCombinesWithAGraphFormat() {
        let result = Demo.run(arguments: ["--broken", "--mermaid"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("graph TD"))
        #expect(result.standardOutput.contains("Database (name: #quot;replica#quot;)"))
        #expect(result.standardOutput != Demo.run(arguments: ["--mermaid"]).standardOutput)
    }

    @Test func theGraphFormatsPrintOnlyTheGraph() {
        #expect(Demo.run(arguments: ["--dot"]).standardOutput.hasPrefix("digraph Wiring {"))
        #expect(Demo.run(arguments: ["--dot"]).standardOutput.hasSuffix("}"))
        #expect(Demo.run(arguments: ["--mermaid"]).standardOutput.hasPrefix("graph TD\n"))
        #expect(Demo.run(arguments: ["--manifest"]).standardOutput.hasPrefix("Wiring manifest: "))
    }
}
