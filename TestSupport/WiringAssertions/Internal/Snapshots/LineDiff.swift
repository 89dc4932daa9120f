/// The difference between two lists of lines, in the unified format `diff -u` prints: hunks
/// headed `@@ -start,count +start,count @@`, lines only in the old text prefixed `-`, lines
/// only in the new one `+`, and up to three unchanged lines around each change. Shared with the
/// package's own snapshot tests (the demo's output), so there is one diff to trust.
package struct LineDiff {
    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    private let edits: [Edit]

    package init(old: [String], new: [String]) {
        edits = Self.edits(from: old, to: new)
    }

    /// The hunks, one line each, the same for the same input.
    package func unified(context: Int = 3) -> String {
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        // Group changes whose context would touch into one hunk.
        var ranges: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        var output: [String] = []
        for range in ranges {
            // Line numbers where the hunk starts: the edits before it, counted on each side.
            let before = edits[..<range.lowerBound]
            let oldStart = before.filter { if case .added = $0 { false } else { true } }.count + 1
            let newStart = before.filter { if case .removed = $0 { false } else { true } }.count + 1
            let hunk = edits[range]
            let oldCount = hunk.filter { if case .added = $0 { false } else { true } }.count
            let newCount = hunk.filter { if case .removed = $0 { false } else { true } }.count
            output.append("@@ -\(Self.span(oldStart, oldCount)) +\(Self.span(newStart, newCount)) @@")
            for edit in hunk {
                switch edit {
                case .same(let line): output.append(" " + line)
                case .removed(let line): output.append("-" + line)
                case .added(let line): output.append("+" + line)
                }
            }
        }
        return output.joined(separator: "\n")
    }

    /// `start,count`, with the start of an empty side being the line before it, as `diff -u` writes it.
    private static func span(_ start: Int, _ count: Int) -> String {
        "\(count == 0 ? start - 1 : start),\(count)"
    }

    /// A shortest edit script, from the longest common subsequence of the two lists. Snapshots
    /// are a few hundred lines at most, so the quadratic table is cheap; on ties it removes
    /// before it adds, so the output is deterministic.
    private static func edits(from old: [String], to new: [String]) -> [Edit] {
        let rows = old.count, columns = new.count
        // common[i][j]: the length of the longest common subsequence of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, old[i] == new[j] {
                edits.append(.same(old[i]))
                i += 1
                j += 1
            } else if j == columns || (i < rows && common[i + 1][j] >= common[i][j + 1]) {
                edits.append(.removed(old[i]))
                i += 1
            } else {
                edits.append(.added(new[j]))
                j += 1
            }
        }
        return edits
    }
}
