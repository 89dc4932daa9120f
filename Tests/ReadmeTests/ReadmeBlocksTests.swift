import Foundation
import Testing

/// Every ```swift block of the README (and of the DocC articles of Wiring and
/// WiringTestSupport) must appear verbatim in a Swift file under `Tests/`, where the compiler
/// and the tests keep it true. Indentation may differ, so a block can sit inside a test function.
@Suite struct ReadmeBlocks {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // ReadmeTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    /// The Markdown files whose examples are checked, relative to the package root.
    static let documents = ["README.md"]
        + articles(in: "Sources/Wiring/Documentation.docc")
        + articles(in: "TestSupport/WiringTestSupport/Documentation.docc")

    @Test func everySwiftBlockAppearsVerbatimInATest() throws {
        let sources = try testSources()
        var checked = 0
        for document in Self.documents {
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
            for block in MarkdownCodeBlocks.swiftBlocks(in: text, file: document) where block.notCompiledReason == nil {
                checked += 1
                let needle = "\n" + Self.normalized(block.lines) + "\n"
                if !sources.contains(where: { $0.contains(needle) }) {
                    Issue.record("""
                        \(block): the ```swift block starting `\(block.firstLine)` appears in no file under Tests/ \
                        (compared line by line, ignoring indentation). Copy it verbatim into a test \
                        (Tests/ReadmeTests), or, if it cannot compile on its own, mark it with \
                        <!-- not-compiled: why --> on the line above.
                        """)
                }
            }
        }
        #expect(checked >= 10, "found only \(checked) swift blocks to check: is \(Self.packageRoot.path) the package root?")
    }

    @Test func everyExceptionSaysWhy() throws {
        for document in Self.documents {
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
            for block in MarkdownCodeBlocks.swiftBlocks(in: text, file: document) {
                if let reason = block.notCompiledReason {
                    #expect(!reason.isEmpty, "\(block): a not-compiled block needs a reason")
                }
            }
        }
    }

    @Test func blocksAreFoundWithTheirLineAndMarker() {
        let markdown = """
            # Title

            ```swift
            let a = 1
            ```

            <!-- not-compiled: a fragment -->

            ```swift
            .target(name: "A"),
            ```
              ```text
              not swift
              ```
            - item:

              ```swift

                  let b = 2

              ```
            """
        let blocks = MarkdownCodeBlocks.swiftBlocks(in: markdown, file: "X.md")
        #expect(blocks.map(\.line) == [3, 9, 17])
        #expect(blocks.map(\.notCompiledReason) == [nil, "a fragment", nil])
        #expect(blocks.map(\.firstLine) == ["let a = 1", ".target(name: \"A\"),", "let b = 2"])
        #expect(blocks[2].description == "X.md:17")
    }

    @Test func indentationDoesNotMatterButEverythingElseDoes() {
        let source = "\n" + Self.normalized(["func f() {", "    let a = 1  ", "    // note", "}"]) + "\n"
        #expect(source.contains("\n" + Self.normalized(["let a = 1", "// note"]) + "\n"))
        #expect(!source.contains("\n" + Self.normalized(["let a = 2", "// note"]) + "\n"))
        #expect(!source.contains("\n" + Self.normalized(["let a = 1"]) + " // note\n"))
    }

    /// Lines without their leading and trailing whitespace, joined with newlines.
    static func normalized(_ lines: [String]) -> String {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    /// Every Swift file under `Tests/`, normalized, wrapped in newlines so a match is whole lines.
    private func testSources() throws -> [String] {
        let tests = Self.packageRoot.appendingPathComponent("Tests", isDirectory: true)
        guard let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        var sources: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            sources.append("\n" + Self.normalized(lines) + "\n")
        }
        return sources
    }

    /// The Markdown articles of a DocC catalog, sorted, relative to the package root.
    private static func articles(in catalog: String) -> [String] {
        let directory = packageRoot.appendingPathComponent(catalog, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }
}
