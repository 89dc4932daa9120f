/// The lines that differ between two texts, as a unified-style list: `-` for lines only in the
/// old text, `+` for lines only in the new one, two spaces for a few unchanged lines around them.
struct LineDiff {
    private enum Line {
        case same(String)
        case removed(String)
        case added(String)
    }

    private let lines: [Line]

    /// Diffs by longest common subsequence of lines: snapshots are short, so the quadratic
    /// table is cheap and the result is the smallest diff.
    init(from old: String, to new: String) {
        let before = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var common = Array(repeating: Array(repeating: 0, count: after.count + 1), count: before.count + 1)
        for i in stride(from: before.count - 1, through: 0, by: -1) {
            for j in stride(from: after.count - 1, through: 0, by: -1) {
                common[i][j] = before[i] == after[j]
                    ? common[i + 1][j + 1] + 1
                    : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [Line] = []
        var i = 0
        var j = 0
        while i < before.count || j < after.count {
            if i < before.count, j < after.count, before[i] == after[j] {
                lines.append(.same(before[i]))
                i += 1
                j += 1
            } else if i < before.count, j == after.count || common[i + 1][j] >= common[i][j + 1] {
                lines.append(.removed(before[i]))
                i += 1
            } else {
                lines.append(.added(after[j]))
                j += 1
            }
        }
        self.lines = lines
    }

    /// The changed lines with up to two unchanged lines of context, `…` where lines are skipped.
    var rendered: String {
        let context = 2
        let changed = lines.indices.filter {
            if case .same = lines[$0] { return false }
            return true
        }
        var output: [String] = []
        var lastShown = -1
        for index in lines.indices {
            let isNearChange = changed.contains { abs($0 - index) <= context }
            guard isNearChange else { continue }
            if index > lastShown + 1 { output.append("…") }
            switch lines[index] {
            case .same(let text): output.append("  " + text)
            case .removed(let text): output.append("- " + text)
            case .added(let text): output.append("+ " + text)
            }
            lastShown = index
        }
        if lastShown < lines.count - 1, lastShown >= 0 { output.append("…") }
        return output.joined(separator: "\n")
    }
}
