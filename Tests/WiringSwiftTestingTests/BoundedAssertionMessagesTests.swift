import Foundation
import Testing
import WiringAssertions
import WiringSwiftTesting

/// The line diff a snapshot assertion fails with is a diagnostic, bounded as every other: its
/// cost does not grow with the product of two large snapshots' lengths, and its text stays a few
/// screens long.
///
/// Before: the diff filled a table of one cell per pair of lines (two 10,000-line snapshots:
/// 100 million cells, some 800 MB), counted each hunk's line numbers from the start again, and
/// showed every changed line (hunt 14).
@Suite struct BoundedLineDiffTests {
    /// A change in the middle of a long snapshot: the lines both sides start and end with are
    /// set aside first, and the hunk's line numbers count them.
    @Test func aChangeInALongSnapshotIsOneHunkAtItsLine() {
        let old = (1...20_000).map { "line \($0)" }
        var new = old
        new[12_344] = "changed"
        new.insert("inserted", at: 15_000)
        #expect(LineDiff(old: old, new: new).unified() == """
            @@ -12342,7 +12342,7 @@
             line 12342
             line 12343
             line 12344
            -line 12345
            +changed
             line 12346
             line 12347
             line 12348
            @@ -14998,6 +14998,7 @@
             line 14998
             line 14999
             line 15000
            +inserted
             line 15001
             line 15002
             line 15003
            """)
    }

    /// Two large snapshots that differ throughout: what differs is shown as removed, then
    /// added, and the text stops after ``LineDiff/maximumShownLines`` lines, saying how many more.
    @Test func twoLargeSnapshotsThatDifferThroughoutGiveABoundedDiff() {
        let old = (1...10_000).map { "old \($0)" }
        let new = (1...10_000).map { "new \($0)" }
        let lines = LineDiff(old: old, new: new).unified().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == LineDiff.maximumShownLines + 1)
        #expect(lines.first == "@@ -1,10000 +1,10000 @@")
        #expect(lines[1] == "-old 1")
        #expect(lines.last == "… 19601 more lines of this diff")
    }
}

/// An assertion's failure lists at most ten of what it found, then how many more, and where
/// they are all listed: a large app's registrations make a list nobody reads.
///
/// Before: `assertNoUnusedRegistrations` (and the leak, fake and warning assertions) listed
/// every one (hunt 14's note).
@Suite struct BoundedAssertionListsTests {
    @Test func unusedRegistrationsAreListedUpToTenThenCounted() {
        let app = Container()
        for number in 1...50 { app.register(Int.self, name: "n\(number)") { _ in number } }
        let test = TestContainer(base: app)
        let message = expectFailures { assertNoUnusedRegistrations(test) }.first?.message ?? ""
        let lines = message.split(separator: "\n").map(String.init)
        #expect(lines.first == "50 registrations were never resolved through the test container:")
        #expect(lines.count == 1 + 10 + 1 + 1, "\(message)")
        #expect(lines[1].hasPrefix("  Int (name: \"n1\")"), "\(message)")
        #expect(lines[11] == "  … and 40 more (`test.unusedRegistrations()` lists them all)")
        #expect(lines.last?.hasSuffix("or pass their keys in `ignoring:`") == true)
    }
}
