import Foundation
import Testing
import WiringDemoKit

/// The README's tour and two articles quote the demo's output: the trace, the wiring report and
/// an error (README, "A one-minute tour"), the error again (ErrorsAndDiagnostics), the manifest
/// and the Mermaid graph (VerifyingAndTheManifest). These checks keep each quote true, so a
/// change to the demo that changes what it prints also changes the documentation.
@Suite struct ReadmeDemoSection {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // WiringDemoTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    static let readme = "README.md"
    static let errorsArticle = "Sources/Wiring/Documentation.docc/ErrorsAndDiagnostics.md"
    static let verifyingArticle = "TestSupport/WiringTestSupport/Documentation.docc/VerifyingAndTheManifest.md"

    /// The fenced blocks of one language in a `## ` section of a Markdown file (relative to the
    /// package root), each without its fences and without a last line of `…` (which marks a cut).
    /// A section that is not there is an error, so a renamed heading cannot empty a check.
    static func quotes(_ language: String, inSection title: String, of document: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
        guard let start = text.range(of: "\n## \(title)\n") else {
            Issue.record("\(document) has no section \"## \(title)\"")
            return []
        }
        // The section ends at the next heading of its level or above.
        var section = String(text[start.upperBound...])
        section = section.components(separatedBy: "\n## ").first ?? ""
        section = section.components(separatedBy: "\n# ").first ?? ""
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
        let quotes = try Self.quotes("mermaid", inSection: "Pictures of the graph", of: Self.verifyingArticle)
        #expect(quotes == [Demo.run(arguments: ["--mermaid"]).standardOutput])
    }

    @Test func theManifestQuotedIsWhatTheDemoPrints() throws {
        let quotes = try Self.quotes("text", inSection: "The wiring manifest", of: Self.verifyingArticle)
        #expect(quotes == [Demo.run(arguments: ["--manifest"]).standardOutput])
    }

    @Test func everyQuotedOutputIsPartOfARealRun() throws {
        let tour = try Self.quotes("text", inSection: "A one-minute tour", of: Self.readme)
        let errors = try Self.quotes("text", inSection: "Overview", of: Self.errorsArticle)
        #expect(tour.count == 3)
        #expect(errors.count == 1)
        let outputs = [Demo.run(arguments: []), Demo.run(arguments: ["--broken"])].map(\.standardOutput)
        for quote in tour + errors {
            #expect(
                outputs.contains { $0.contains(quote) },
                "the documentation quotes output the demo no longer prints:\n\(quote)")
        }
    }
}
