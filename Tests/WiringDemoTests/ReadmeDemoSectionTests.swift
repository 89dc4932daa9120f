import Foundation
import Testing
import WiringDemoKit

/// The README quotes the demo's output, in "The demo", in "Errors" and in "The wiring manifest";
/// these checks keep each quote true, so a change to the demo that changes what it prints also
/// changes the README.
@Suite struct ReadmeDemoSection {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // WiringDemoTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The fenced blocks of one language in a `## ` section (or, with `level` 3, a `### `
    /// subsection) of the README, each without its fences and without a last line of `…`
    /// (which marks a cut).
    static func quotes(_ language: String, inSection title: String = "The demo", level: Int = 2) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let heading = String(repeating: "#", count: level)
        guard let start = text.range(of: "\n\(heading) \(title)\n") else { return [] }
        // The section ends at the next heading of its level or above.
        var section = String(text[start.upperBound...])
        for depth in 2...level {
            section = section.components(separatedBy: "\n" + String(repeating: "#", count: depth) + " ").first ?? ""
        }
        var quotes: [String] = []
        var current: [String]?
        for line in section.components(separatedBy: "\n") {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                if current?.last == "…" { current?.removeLast() }
                quotes.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return quotes
    }

    @Test func theMermaidPictureIsWhatTheDemoDraws() throws {
        let quotes = try Self.quotes("mermaid")
        #expect(quotes == [Demo.run(arguments: ["--mermaid"]).standardOutput])
    }

    @Test func theManifestQuotedIsWhatTheDemoPrints() throws {
        let quotes = try Self.quotes("text", inSection: "The wiring manifest", level: 3)
        #expect(quotes == [Demo.run(arguments: ["--manifest"]).standardOutput])
    }

    @Test func everyQuotedOutputIsPartOfARealRun() throws {
        let quotes = try Self.quotes("text") + Self.quotes("text", inSection: "Errors")
        #expect(quotes.count >= 3)
        let outputs = [Demo.run(arguments: []), Demo.run(arguments: ["--broken"])].map(\.standardOutput)
        for quote in quotes {
            #expect(
                outputs.contains { $0.contains(quote) },
                "the README quotes output the demo no longer prints:\n\(quote)")
        }
    }
}
