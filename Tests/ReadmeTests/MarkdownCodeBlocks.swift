import Foundation

/// A fenced ```swift block of a Markdown file, where it starts, and whether it is marked as
/// not compiled.
struct CodeBlock: Sendable, CustomStringConvertible {
    /// The Markdown file, relative to the package root: `README.md`.
    let file: String
    /// The 1-based line of the opening fence.
    let line: Int
    /// The block's lines, without the fences, blank lines at either end dropped.
    let lines: [String]
    /// The reason given by a `<!-- not-compiled: reason -->` comment right above the fence.
    let notCompiledReason: String?

    /// `README.md:42`, as compilers print locations.
    var description: String { "\(file):\(line)" }

    /// The first line with code on it, to name the block in messages.
    var firstLine: String {
        lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
            .trimmingCharacters(in: .whitespaces) ?? ""
    }
}

/// Finds the ```swift blocks of Markdown text.
///
/// A block preceded (blank lines aside) by `<!-- not-compiled: reason -->` is marked, so a
/// fragment such as a `Package.swift` excerpt can be shown without being compiled; the reason is
/// required, so each exception says why it is one.
enum MarkdownCodeBlocks {
    static func swiftBlocks(in text: String, file: String) -> [CodeBlock] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [CodeBlock] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index
            index += 1
            var body: [String] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            index += 1
            guard language == "swift" else { continue }
            while body.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { body.removeFirst() }
            while body.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { body.removeLast() }
            blocks.append(CodeBlock(
                file: file, line: start + 1, lines: body,
                notCompiledReason: notCompiledReason(above: start, in: lines)))
        }
        return blocks
    }

    private static func notCompiledReason(above fence: Int, in lines: [String]) -> String? {
        var index = fence - 1
        while index >= 0, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index -= 1 }
        guard index >= 0 else { return nil }
        let comment = lines[index].trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- not-compiled:"
        guard comment.hasPrefix(prefix), comment.hasSuffix("-->") else { return nil }
        return comment.dropFirst(prefix.count).dropLast(3).trimmingCharacters(in: .whitespaces)
    }
}
