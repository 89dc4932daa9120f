import Foundation
import Wiring
import Testing
import WiringTestSupport

/// One text snapshot on disk, and how a rendering compares with it: what `assertTraceSnapshot`
/// and `assertWiringSnapshot` keep, each named in its messages.
package struct TextSnapshot {
    /// What a snapshot keeps, as its file name and its messages say it.
    package struct Subject: Sendable {
        /// The snapshot, in messages: `trace snapshot`.
        let snapshot: String
        /// What is compared with it, in messages: `trace`.
        let rendering: String
        /// What the file name ends with after the snapshot's name: `.txt`.
        let fileExtension: String

        /// A trace's rendering: `<test>.<name>.txt`.
        package static let trace = Subject(snapshot: "trace snapshot", rendering: "trace", fileExtension: ".txt")
        /// A wiring manifest's rendering: `<test>.<name>.wiring.txt`, so that it never takes the
        /// place of a trace snapshot of the same name.
        package static let wiring = Subject(
            snapshot: "wiring snapshot", rendering: "manifest", fileExtension: ".wiring.txt")
    }

    /// The file the snapshot is kept in.
    package let url: URL
    /// What it keeps.
    package let subject: Subject

    /// - Parameters:
    ///   - subject: What the snapshot keeps.
    ///   - name: The snapshot's name within its test.
    ///   - testName: The test's function name, as `#function` gives it.
    ///   - testFilePath: The test file's path, as `#filePath` gives it.
    ///   - directory: Where to keep the snapshot instead of `__Snapshots__/<TestFile>/` beside the test.
    package init(_ subject: Subject = .trace, name: String, testName: String, testFilePath: String, directory: String?) {
        let testFile = URL(fileURLWithPath: testFilePath, isDirectory: false)
        let folder = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? testFile.deletingLastPathComponent()
                .appendingPathComponent("__Snapshots__", isDirectory: true)
                .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
        let fileName = "\(Self.sanitized(testName)).\(Self.sanitized(name))\(subject.fileExtension)"
        url = folder.appendingPathComponent(fileName, isDirectory: false)
        self.subject = subject
    }

    /// Compares `rendered` with the snapshot, writing it when it is missing or `record` is set.
    /// - Parameter environment: Where `WIRING_RECORD_SNAPSHOTS` and `CI` are read from.
    /// - Returns: Why the assertion fails, or `nil` when the snapshot matches.
    func verify(_ rendered: String, record: Bool, environment: [String: String]) -> String? {
        let path = url.path
        let snapshot = subject.snapshot
        let rendering = subject.rendering
        if record || Self.isSet(environment["WIRING_RECORD_SNAPSHOTS"]) {
            let why = record ? "`record: true`" : "WIRING_RECORD_SNAPSHOTS is set"
            return write(rendered) ?? """
                recorded the \(snapshot), as \(why): \(path)
                  fix: turn recording off and run the test again to compare against it
                """
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if Self.isSet(environment["CI"]) {
                return """
                    no \(snapshot) at \(path), and none was recorded as CI is set
                      fix: run the test locally to record it, and commit it
                    """
            }
            return write(rendered) ?? """
                no \(snapshot) was found, so this one was recorded: \(path)
                  fix: check it, commit it, and run the test again to compare against it
                """
        }
        let stored = String(decoding: data, as: UTF8.self)
        let expected = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
        guard expected != rendered else { return nil }
        let diff = LineDiff(old: Self.lines(of: expected), new: Self.lines(of: rendered)).unified()
        return """
            the \(rendering) does not match the snapshot \(path)
            (- snapshot, + \(rendering))
            \(diff)
              fix: if the new \(rendering) is right, run again with WIRING_RECORD_SNAPSHOTS=1 or `record: true` to record it
            """
    }

    /// Writes the snapshot atomically (a temporary file in the same folder, then a rename), so
    /// that a test stopped halfway never leaves half a snapshot behind.
    /// - Returns: Why it could not be written, or `nil`.
    private func write(_ rendered: String) -> String? {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((rendered + "\n").utf8).write(to: url, options: .atomic)
            return nil
        } catch {
            return "could not write the \(subject.snapshot) \(url.path): \(error)"
        }
    }

    private static func lines(of text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether an environment variable asks for something: set, and not `0`, `false` or `no`.
    private static func isSet(_ value: String?) -> Bool {
        guard let value = value?.lowercased(), !value.isEmpty else { return false }
        return !["0", "false", "no"].contains(value)
    }

    /// A name safe in a file name: `checkout()` → `checkout`, `sees(index:)` → `sees-index`.
    static func sanitized(_ name: String) -> String {
        var result = ""
        var pendingDash = false
        for character in name {
            if character.isLetter || character.isNumber || character == "_" {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        return result.isEmpty ? "snapshot" : result
    }
}

/// Compares `rendered` with its snapshot and fails the running test at `site` when they differ,
/// when the snapshot was missing, or when it was recorded again: what every snapshot assertion does.
/// - Parameters:
///   - rendered: The text to keep.
///   - subject: What it is.
///   - name: The snapshot's name within its test.
///   - snapshotDirectory: The folder to keep it in instead of the one beside the test.
///   - record: Writes it again, and fails.
///   - site: Where the assertion was called, with the test's function name.
///   - environment: Where `WIRING_RECORD_SNAPSHOTS` and `CI` are read from.
package func checkSnapshot(
    _ rendered: String, of subject: TextSnapshot.Subject, named name: String, snapshotDirectory: String?,
    record: Bool, at site: CallSite, environment: [String: String]
) {
    let testName = SnapshotName.testName(for: site)
    let snapshot = TextSnapshot(
        subject, name: name, testName: testName.name, testFilePath: site.filePath, directory: snapshotDirectory)
    if let failure = SnapshotName.claim(snapshot.url.path, named: name, by: testName.test, testCase: testName.testCase) {
        recordFailure(failure, at: site)
        return
    }
    if let legacy = testName.legacy, legacy != testName.name {
        let old = TextSnapshot(subject, name: name, testName: legacy, testFilePath: site.filePath, directory: snapshotDirectory)
        if old.url != snapshot.url, !FileManager.default.fileExists(atPath: snapshot.url.path),
            FileManager.default.fileExists(atPath: old.url.path)
        {
            recordFailure(
                """
                the \(subject.snapshot) is kept under its old name, \(old.url.path), from the calling function's name; \
                it is now named after the running test: \(snapshot.url.path)
                  fix: rename the file (`git mv`) to its new name, and run the test again
                """, at: site)
            return
        }
    }
    if let failure = snapshot.verify(rendered, record: record, environment: environment) {
        recordFailure(failure, at: site)
    }
}

/// What a snapshot is named after, and which file each test of the run has checked.
package enum SnapshotName {
    /// The test name a snapshot's file is named after: the caller's, else the running test's (a
    /// Swift Testing test's function, an XCTest test's method, which a Quick example has of its
    /// own), else the calling function's. `legacy` is the calling function's name, which files
    /// were named after before, where it differs; `test` names the test that runs, and
    /// `testCase` tells which case it is when it is one of a parameterized test's.
    static func testName(
        for site: CallSite
    ) -> (name: String, legacy: String?, test: String, testCase: TestCaseKey?) {
        let testCase = Test.current.flatMap { test in
            Test.Case.current.flatMap { $0.isParameterized ? TestCaseKey(test: test.id, testCase: $0) : nil }
        }
        if let explicit = site.testName { return (explicit, nil, runningTest ?? explicit, testCase) }
        if let test = Test.current {
            return (test.name, nil, TestIdentification.name(of: test), testCase)
        }
        // XCTest runs one test at a time, on the main thread or, for an async one, off it.
        if let testCase = XCTestRunObserver.shared.currentTestCase {
            let method = methodName(of: testCase.name)
            return (method, site.function.isEmpty ? nil : site.function, testCase.name, nil)
        }
        return (site.function, nil, runningTest ?? site.function, nil)
    }

    /// The method of an XCTest test case's name: `testCheckout` of `-[CheckoutTests testCheckout]`
    /// (Darwin) or `CheckoutTests.testCheckout` (Linux).
    static func methodName(of testCaseName: String) -> String {
        let trimmed = testCaseName.trimmingCharacters(in: CharacterSet(charactersIn: "-[]"))
        return trimmed.split(whereSeparator: { $0 == " " || $0 == "." }).last.map(String.init) ?? trimmed
    }

    private static var runningTest: String? {
        RunningTests.current?.name
    }

    /// The snapshot files checked in this run, by path in lower case (a disk may ignore case),
    /// with the test, the case of it and the snapshot name that checked each.
    private static let checked = LockedState<[String: (test: String, testCase: TestCaseKey?, name: String)]>([:])

    /// Notes that `test` (its case `testCase`, if parameterized) checks the file at `path` for the
    /// snapshot `name`: the reason to fail when another test of this run checked it already, or
    /// another case of the same parameterized test, as two Quick examples sharing a function would
    /// write one file twice (and race for it in parallel), or another name of the same test that
    /// becomes the same file name. The same case checking the same name again (a repetition) may.
    static func claim(_ path: String, named name: String, by test: String, testCase: TestCaseKey?) -> String? {
        let earlier = checked.withLock { checked -> (test: String, testCase: TestCaseKey?, name: String)? in
            if let earlier = checked[path.lowercased()] { return earlier }
            checked[path.lowercased()] = (test, testCase, name)
            return nil
        }
        guard let earlier else { return nil }
        if earlier.test == test, earlier.testCase == testCase {
            guard earlier.name != name else { return nil }
            return """
                the snapshot names \(BoundedText.literal(earlier.name)) and \(BoundedText.literal(name)) of this test \
                both become the file \(path) (a file name keeps only letters, digits and `_`, and a disk may \
                ignore case): the second would be compared with the first's snapshot
                  fix: give them names that differ in their letters or digits
                """
        }
        let who = earlier.test == test ? "by another case of this parameterized test" : "by \(earlier.test)"
        return """
            the snapshot \(path) was checked in this run \(who): two checks of one file would write it twice, \
            and race for it when tests run in parallel
              fix: give each its own name: `named:` with what tells the cases apart (an argument, the example), \
            or `testName:`
            """
    }

}
