import Foundation
import Testing
import WiringDemoKit

/// Graphviz is not a dependency of the package, so this check runs only where `dot` is
/// installed; elsewhere the test is skipped and says why.
@Suite struct Graphviz {
    /// `dot` on the PATH, if there is one.
    static let dotExecutable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("dot") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test(
        .enabled(if: dotExecutable != nil, "Graphviz `dot` is not on PATH: install Graphviz to check that the DOT output renders"),
        arguments: [["--dot"], ["--broken", "--dot"]])
    func dotRendersTheGraphAsSVG(arguments: [String]) throws {
        let dot = try #require(Self.dotExecutable)
        let process = Process()
        process.executableURL = dot
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(Demo.run(arguments: arguments).standardOutput.utf8))
        try input.fileHandleForWriting.close()
        // Read before waiting: a full pipe would otherwise block `dot` forever.
        let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0, "dot rejected the DOT output: \(messages)")
        #expect(svg.contains("<svg"))
        #expect(svg.contains("ProductViewModel"))
    }
}
