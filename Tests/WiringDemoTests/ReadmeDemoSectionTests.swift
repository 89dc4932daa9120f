import Foundation
import Testing
import WiringDemoKit

/// The README quotes the demo's output, in "The demo" and in "Errors"; these checks keep each
/// quote true, so a change to the demo that changes what it prints also changes the README.
@Suite struct ReadmeDemoSection {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // WiringDemoTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The fenced blocks of one language in a `## ` section of the README, each without its
    /// fences and without a last line of `…` (which marks a cut).
    static func quotes(_ language: String, inSection title: String = "The demo") throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "\n## \(title)\n") else { return [] }
        let section = text[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
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
