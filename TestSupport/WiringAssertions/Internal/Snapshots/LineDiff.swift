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

    /// The hunks, one line each, the same for the same input: at most ``maximumShownLines``
    /// of them, and a last line saying how many more there are.
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
        // The line each side is at, counted once through the edits, hunk after hunk.
        var oldLine = 1, newLine = 1, counted = 0
        func count(_ edits: ArraySlice<Edit>) -> (old: Int, new: Int) {
            edits.reduce(into: (0, 0)) { counts, edit in
                if case .added = edit {} else { counts.0 += 1 }
                if case .removed = edit {} else { counts.1 += 1 }
            }
        }
        for range in ranges {
            let skipped = count(edits[counted..<range.lowerBound])
            oldLine += skipped.old
            newLine += skipped.new
            let hunk = edits[range]
            let lengths = count(hunk)
            output.append("@@ -\(Self.span(oldLine, lengths.old)) +\(Self.span(newLine, lengths.new)) @@")
            for edit in hunk {
                switch edit {
                case .same(let line): output.append(" " + line)
                case .removed(let line): output.append("-" + line)
                case .added(let line): output.append("+" + line)
                }
            }
            oldLine += lengths.old
            newLine += lengths.new
            counted = range.upperBound + 1
        }
        guard output.count > Self.maximumShownLines else { return output.joined(separator: "\n") }
        return (output.prefix(Self.maximumShownLines) + ["… \(output.count - Self.maximumShownLines) more lines of this diff"])
            .joined(separator: "\n")
    }

    /// The most lines ``unified(context:)`` shows: a message of a few screens, however large
    /// the snapshots.
    package static let maximumShownLines = 400

    /// `start,count`, with the start of an empty side being the line before it, as `diff -u` writes it.
    private static func span(_ start: Int, _ count: Int) -> String {
        "\(count == 0 ? start - 1 : start),\(count)"
    }

    /// The most differing lines ``edits(from:to:)`` aligns one by one: beyond, what differs is
    /// shown as removed, then added. Its cost grows with the lines times the differences, and
    /// what it keeps with the square of the differences.
    private static let maximumDifferences = 1_000

    /// A shortest edit script (Myers' greedy algorithm), between the lines both lists start and
    /// end with. Within each run of changes, removals come before additions, so the output is
    /// deterministic and reads as `diff -u` does.
    private static func edits(from old: [String], to new: [String]) -> [Edit] {
        let start = zip(old, new).prefix { $0 == $1 }.count
        let end = zip(old[start...].reversed(), new[start...].reversed()).prefix { $0 == $1 }.count
        let oldMiddle = Array(old[start..<(old.count - end)]), newMiddle = Array(new[start..<(new.count - end)])
        let middle = shortestScript(from: oldMiddle, to: newMiddle)
            ?? oldMiddle.map(Edit.removed) + newMiddle.map(Edit.added)
        return old[..<start].map(Edit.same) + removalsFirst(middle) + old[(old.count - end)...].map(Edit.same)
    }

    /// A shortest edit script from `old` to `new`, or `nil` when it takes more than
    /// ``maximumDifferences`` removals and additions. Round `d` finds, on each diagonal `k`
    /// (lines of `old` used minus lines of `new` used), how far a script of `d` edits reaches;
    /// the reaches of every round are kept to walk the script back from the end.
    private static func shortestScript(from old: [String], to new: [String]) -> [Edit]? {
        let (n, m) = (old.count, new.count)
        var reach: [Int: Int] = [1: 0]
        var rounds: [[Int: Int]] = []
        for d in 0...min(n + m, maximumDifferences) {
            rounds.append(reach)
            for k in stride(from: -d, through: d, by: 2) {
                // From the diagonal above (an addition) or the one below (a removal).
                let fromAbove = k == -d || (k != d && reach[k - 1, default: 0] < reach[k + 1, default: 0])
                var x = fromAbove ? reach[k + 1, default: 0] : reach[k - 1, default: 0] + 1
                var y = x - k
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                reach[k] = x
                if x >= n, y >= m { return walkBack(rounds, to: d, old: old, new: new) }
            }
        }
        return nil
    }

    /// The script of `d` edits whose rounds' reaches are `rounds`, from its end back to its start.
    private static func walkBack(_ rounds: [[Int: Int]], to d: Int, old: [String], new: [String]) -> [Edit] {
        var edits: [Edit] = []
        var (x, y) = (old.count, new.count)
        for round in stride(from: d, through: 0, by: -1) {
            let reach = rounds[round]
            let k = x - y
            let fromAbove = k == -round || (k != round && reach[k - 1, default: 0] < reach[k + 1, default: 0])
            let previousX = round == 0 ? 0 : fromAbove ? reach[k + 1, default: 0] : reach[k - 1, default: 0]
            let previousY = round == 0 ? 0 : previousX - (fromAbove ? k + 1 : k - 1)
            while x > previousX, y > previousY {
                edits.append(.same(old[x - 1]))
                x -= 1
                y -= 1
            }
            guard round > 0 else { break }
            if fromAbove {
                edits.append(.added(new[y - 1]))
                y -= 1
            } else {
                edits.append(.removed(old[x - 1]))
                x -= 1
            }
        }
        return edits.reversed()
    }

    /// `edits` with each run of changes put as its removals, then its additions.
    private static func removalsFirst(_ edits: [Edit]) -> [Edit] {
        var result: [Edit] = []
        var added: [Edit] = []
        for edit in edits {
            switch edit {
            case .same:
                result += added
                added = []
                result.append(edit)
            case .removed: result.append(edit)
            case .added: added.append(edit)
            }
        }
        return result + added
    }
}
