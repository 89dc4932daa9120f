import Foundation
import Testing

/// What the README promises a newcomer: it stays short, and its first example is a parallel
/// Swift Testing test with the per-test trait and one override, reached early.
@Suite struct ReadmeStructure {
    static func readme() throws -> String {
        try String(contentsOf: ReadmeBlocks.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test func theReadmeIsAtMost400Lines() throws {
        let lines = try Self.readme().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 401, "the README has \(lines.count) lines; move detail to an article")
    }

    @Test func theFirstCompiledExampleIsAParallelTestWithTheTraitAndAnOverride() throws {
        let blocks = MarkdownCodeBlocks.swiftBlocks(in: try Self.readme(), file: "README.md")
        let first = try #require(blocks.first { $0.notCompiledReason == nil })
        #expect(first.line <= 60, "the quick start's test starts at line \(first.line)")
        let code = first.lines.joined(separator: "\n")
        #expect(code.contains("@Test(.testContainer {"))
        #expect(code.contains(".override("))
        #expect(code.contains("TestContainer.current"))
    }

    @Test func everyRelativeLinkPointsAtAFileOfThePackage() throws {
        let text = try Self.readme()
        let pattern = try Regex(#"\]\(([^)#:]+)\)"#)
        var checked = 0
        for match in text.matches(of: pattern) {
            let target = String(text[match.range].dropFirst(2).dropLast())
            checked += 1
            #expect(
                FileManager.default.fileExists(atPath: ReadmeBlocks.packageRoot.appendingPathComponent(target).path),
                "README links to \(target), which does not exist")
        }
        #expect(checked >= 10)
    }
}
