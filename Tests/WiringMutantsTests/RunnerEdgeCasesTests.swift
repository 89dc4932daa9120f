// What wiring-mutants does at the edges of its input: Swift Testing's summary lines and other
// ways of printing a test, numbers at the ends of an option's range, a baseline with Windows line
// ends, keys of any length in an error.
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import WiringMutantsCore
import WiringTestHelpers

/// A fake test binary for `MutantsRunner` (`--test-binary`): a shell script that lists the Swift
/// Testing tests `list` names (no XCTest tests), writes `coverage` as the coverage JSON when run
/// with `WIRING_COVERAGE`, and under a mutant prints `mutantOutput` and exits with `mutantStatus`.
private struct FakeBinary {
    let directory: String
    var path: String { (directory as NSString).appendingPathComponent("fake.xctest") }

    init(list: String, coverage: String, mutantOutput: String, mutantStatus: Int32) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("edge-cases-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try list.write(toFile: directory + "/list.txt", atomically: true, encoding: .utf8)
        try coverage.write(toFile: directory + "/coverage.json", atomically: true, encoding: .utf8)
        try mutantOutput.write(toFile: directory + "/mutant.txt", atomically: true, encoding: .utf8)
        let script = """
            #!/bin/sh
            here='\(directory)'
            if [ "$1" = "--list-tests" ]; then exit 0; fi
            if [ "$1" = "--testing-library" ] && [ "$3" = "--list-tests" ]; then cat "$here/list.txt"; exit 0; fi
            if [ -n "$WIRING_COVERAGE" ]; then cp "$here/coverage.json" "$(dirname "$WIRING_COVERAGE")/wiring-coverage.json"; exit 0; fi
            cat "$here/mutant.txt"
            exit \(mutantStatus)

            """
        try Self.writeExecutable(script, to: path)
    }

    /// Writes `script` to `path`, executable, through a descriptor closed on exec: a process
    /// another test starts while the file is open for writing would otherwise inherit it and
    /// keep it open as long as it runs, and running the script would fail with "Text file busy".
    private static func writeExecutable(_ script: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(script.utf8))
        try handle.close()
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    func options(only: String? = nil) -> MutantsOptions {
        var options = MutantsOptions()
        options.testBinary = path
        options.targets = ["AppTests"]
        options.only = only
        options.jobs = 1
        options.timeout = 20
        return options
    }
}

/// 20 registrations of keys `Box0<body>` … `Box19<body>`, each resolved by one test.
private func boxes(of body: String) -> [CoverageInput.Registration] {
    (0..<20).map { index in
        CoverageInput.Registration(
            key: "Box\(index)<" + body + ">", scope: ".container",
            file: "App/Setup.swift", line: index + 1, tests: 1, resolvedBy: ["AppTests.Suite/sends()"])
    }
}

/// A coverage JSON of `registrations`, as `CoverageInput` reads it.
private func coverageJSON(_ registrations: [CoverageInput.Registration]) -> String {
    let entries = registrations.map { r in
        func list(_ names: [String]?) -> String {
            "[" + (names ?? []).map { "\"\($0)\"" }.joined(separator: ",") + "]"
        }
        return """
            {"key": "\(r.key)", "scope": "\(r.scope)", "file": "\(r.file)", "line": \(r.line), "tests": \(r.tests), \
            "resolvedBy": \(list(r.resolvedBy)), "verifiedBy": \(list(r.verifiedBy))}
            """
    }
    return #"{"format": "wiring-coverage", "version": 1, "registrations": ["# + entries.joined(separator: ",") + "]}"
}

private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Whether `body`, run on a thread of its own, ends within `seconds`; if not, it runs on, but
/// the test fails instead of hanging. A time limit trait would not do: the test cannot end
/// before its synchronous body returns, and the limit's own timer waits for one of Swift
/// Testing's threads, which bodies like this hold (two, on a machine of two cores).
private func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite("wiring-mutants at the edges of its input", .enabled(if: ChildProcess.isSupported))
struct RunnerEdgeCasesTests {
    /// `--fail-under` takes a fractional score (`66.5`) and keeps it: a run whose score is below
    /// it fails. The score compared is the one the report prints, rounded down.
    ///
    /// Before the fix: `--fail-under 66.5` was kept as `66`, so a run scoring 66% (2 of 3
    /// mutants killed) exited 0.
    @Test func aFractionalFailUnderStillFailsAScoreBelowIt() throws {
        let options = try MutantsOptions.parse(["--fail-under", "66.5"])
        let report = MutantsReport(mutants: [
            .init(key: "A", scope: ".container", file: "f", line: 1, mutation: .unshare, outcome: .killed),
            .init(key: "A", scope: ".container", file: "f", line: 1, mutation: .unregister, outcome: .killed),
            .init(key: "A", scope: ".container", file: "f", line: 1, mutation: .fake, outcome: .survived),
        ])
        #expect(report.score == 66)
        let least = try #require(options.failUnder)
        #expect(least == 66.5)
        // What MutantsCommand.main decides the exit status by.
        #expect(report.isBelow(least), "--fail-under 66.5 kept as \(least): a score of 66% passes")
        #expect(!report.isBelow(66))
    }

    /// A number out of an option's range, however large, is a wrong command line: exit status
    /// 2 and what to write, never a crash.
    ///
    /// Before the fix: `--fail-under 1e300` (or `inf`) and `--jobs 1e300` trapped converting
    /// the `Double` to an `Int`.
    @Test(arguments: [
        ["--fail-under", "1e300"], ["--fail-under", "inf"], ["--fail-under", "nan"], ["--jobs", "1e300"], ["--jobs", "2.5"],
        ["--jobs", "99999999999999999999"], ["--timeout", "inf"],
    ])
    func aHugeNumberOnTheCommandLineIsAUsageErrorNotACrash(arguments: [String]) throws {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("wiring-mutants").path
        try #require(FileManager.default.isExecutableFile(atPath: runner), "build wiring-mutants first: \(runner)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edge-cases-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (outcome, output) = try BoundedProcess.capture(
            runner, arguments: arguments, environment: ["SWIFT_BACKTRACE": "enable=no"], in: directory, timeout: 30)
        #expect(!outcome.wasSignalled && outcome.status == 2, "wiring-mutants \(arguments): \(outcome)\n\(output.suffix(500))")
    }

    /// A baseline with Windows line ends (`\r\n`) reads line by line, as any other: its
    /// survivors are accepted, and a wrong line names its own line number.
    ///
    /// Before the fix: Swift reads `\r\n` as one `Character`, not `"\n"`, so the whole file was
    /// one line: after a comment, nothing was accepted and no error raised.
    @Test func aBaselineWithWindowsLineEndsAcceptsItsSurvivors() throws {
        let baseline = try Baseline(text: "# sharing the mailer is fine\r\nMailer:unshare\r\n", path: "baseline.txt")
        #expect(baseline.accepted == ["Mailer:unshare"])
        let two = try Baseline(text: "A:unshare\r\nB:fake\r\n", path: "baseline.txt")
        #expect(two.accepted == ["A:unshare", "B:fake"])
        let error = #expect(throws: MutantsOptions.UsageError.self) { try Baseline(text: "A:unshare\r\nB\r\n", path: "b.txt") }
        #expect(error?.description.hasPrefix(#"b.txt:2: "B" names no mutant"#) == true, "\(String(describing: error))")
    }

    /// A mutant only a verifying Swift Testing test noticed is caught by verification: the
    /// run's summary line (`✘ Test run with 2 tests in 1 suite failed after …`) is no test.
    ///
    /// Before the fix: the summary was read as a failed test named `run with 2 tests in 1
    /// suite`, and the mutant reported killed by it.
    @Test(.timeLimit(.minutes(4)))
    func aSwiftTestingVerifyingTestCatchesByVerification() throws {
        let registration = CoverageInput.Registration(
            key: "Mailer", scope: ".transient", file: "App/Setup.swift", line: 3, tests: 1,
            resolvedBy: ["AppTests.Suite/sends()"], verifiedBy: ["AppTests.Suite/verify()"])
        let fake = try FakeBinary(
            list: "AppTests.Suite/sends()\nAppTests.Suite/verify()\n", coverage: coverageJSON([registration]),
            mutantOutput: """
                ◇ Test run started.
                ◇ Test sends() started.
                ◇ Test verify() started.
                ✔ Test sends() passed after 0.001 seconds.
                ✘ Test verify() recorded an issue at Suite.swift:9:5: 1 problem
                ✘ Test verify() failed after 0.002 seconds with 1 issue.
                ✘ Test run with 2 tests in 1 suite failed after 0.003 seconds with 1 issue.

                """,
            mutantStatus: 1)
        defer { fake.remove() }
        let log = Lines()
        let report = try MutantsRunner(options: fake.options()) { log.append($0) }.run()
        #expect(report.mutants.map(\.outcome) == [.caughtByVerification], "\(report.render())")
        #expect(report.mutants.first?.killedBy == "AppTests.Suite/verify()", "\(report.render())")
    }

    /// A verifying test Swift Testing prints by another name, its display name in quotes
    /// (`@Test("verifies the wiring")`) or with its count of cases (`verify(x:) with 3 test
    /// cases`), is still the verifying test: the mutant is caught by verification.
    ///
    /// Before the fix: neither name matched a test, and the mutant was reported killed by
    /// `"verifies the wiring"` (or `verify(x:) with 3 test cases`).
    @Test(.timeLimit(.minutes(4)), arguments: [
        ("\"verifies the wiring\"", "AppTests.Suite/verify()"),
        ("verify(x:) with 3 test cases", "AppTests.Suite/verify(x:)"),
    ])
    func aVerifyingTestPrintedByAnotherNameCatchesByVerification(printed: String, identifier: String) throws {
        let registration = CoverageInput.Registration(
            key: "Mailer", scope: ".transient", file: "App/Setup.swift", line: 3, tests: 1,
            resolvedBy: ["AppTests.Suite/sends()"], verifiedBy: [identifier])
        let fake = try FakeBinary(
            list: "AppTests.Suite/sends()\n\(identifier)\n", coverage: coverageJSON([registration]),
            mutantOutput: """
                ◇ Test sends() started.
                ◇ Test \(printed) started.
                ✔ Test sends() passed after 0.001 seconds.
                ✘ Test \(printed) recorded an issue at Suite.swift:9:5: 1 problem
                ✘ Test \(printed) failed after 0.002 seconds with 1 issue.

                """,
            mutantStatus: 1)
        defer { fake.remove() }
        let log = Lines()
        let report = try MutantsRunner(options: fake.options()) { log.append($0) }.run()
        #expect(report.mutants.map(\.outcome) == [.caughtByVerification], "\(report.render())")
    }

    /// When every test of the run prints a display name, the names cannot say which failed;
    /// the test process's own note that verification found problems in a test (printed under
    /// a mutant by WiringTestSupport) can. Without it, nothing shows the mutant was caught by
    /// verification only, and it is reported killed.
    @Test(.timeLimit(.minutes(4)), arguments: [true, false])
    func displayNamesAllRoundAreTiedToTestsByTheVerificationNote(noted: Bool) throws {
        let registration = CoverageInput.Registration(
            key: "Mailer", scope: ".transient", file: "App/Setup.swift", line: 3, tests: 1,
            resolvedBy: ["AppTests.Suite/sends()"], verifiedBy: ["AppTests.Suite/verify()"])
        let note = "wiring-mutants: verification ran under WIRING_MUTANT=Mailer:unregister in test AppTests.Suite/verify(): verifyWiring, 1 problem\n"
        let fake = try FakeBinary(
            list: "AppTests.Suite/sends()\nAppTests.Suite/verify()\n", coverage: coverageJSON([registration]),
            mutantOutput: """
                ◇ Test "sends the mail" started.
                ◇ Test "verifies the wiring" started.
                \(noted ? note : "")✔ Test "sends the mail" passed after 0.001 seconds.
                ✘ Test "verifies the wiring" failed after 0.002 seconds with 1 issue.

                """,
            mutantStatus: 1)
        defer { fake.remove() }
        let log = Lines()
        let report = try MutantsRunner(options: fake.options()) { log.append($0) }.run()
        #expect(report.mutants.map(\.outcome) == [noted ? .caughtByVerification : .killed], "\(report.render())")
        #expect(report.mutants.first?.killedBy == (noted ? "AppTests.Suite/verify()" : "\"verifies the wiring\""))
    }

    /// `--only`'s error lists at most 20 keys, each shortened to its start and end with its
    /// length: the message stays small whatever the keys (a deeply generic type's name).
    ///
    /// Before the fix: each key was listed whole; 20 keys of 100,000 characters made a message
    /// of over 2,000,000. (Keys of 10,000 characters here: enough to overflow the bound tenfold.
    /// `onlysErrorForALongNameAmongLongKeysDoesNotHang` covers longer ones.)
    ///
    /// The same with keys whose body is one character of 10,000 scalars (a letter and its
    /// accents): before the fix, the runner counted characters, so it showed such a key whole.
    @Test(.timeLimit(.minutes(4)), arguments: ["A", "e\u{301}"])
    func onlysErrorForAMissingKeyIsBounded(body kind: String) throws {
        let body = kind == "A" ? String(repeating: "A", count: 10_000) : "e" + String(repeating: "\u{301}", count: 9_999)
        let fake = try FakeBinary(
            list: "AppTests.Suite/sends()\n", coverage: coverageJSON(boxes(of: body)), mutantOutput: "", mutantStatus: 0)
        defer { fake.remove() }
        let log = Lines()
        let error = #expect(throws: MutantsRunner.Failure.self) {
            _ = try MutantsRunner(options: fake.options(only: "Nothing")) { log.append($0) }.run()
        }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("no registration \"Nothing\""), "\(message.prefix(200))")
        #expect(message.utf8.count < 10_000, "--only's error is \(message.utf8.count) bytes long")
        #expect(message.contains(kind == "A" ? "(10007 characters)" : "(20006 bytes)"), "\(message.prefix(500))")
    }

    /// `--only`'s error for a long name that is no key, among long keys that differ from it only
    /// at their end, comes within a bound far above what work linear in their length takes: a
    /// hostile name must not hang. The keys are ASCII, or flags of regional indicators, where
    /// each `Character` is two scalars and a break is found by counting pairs. 20 keys of
    /// 40,000 characters (a coverage file of 0.8 or 6.4 MB) take under a second alone, under
    /// Address Sanitizer too, while work quadratic in a key's length, 20 times 800 million
    /// steps, takes minutes.
    ///
    /// No fix came with it: the runner was linear already. Tried against two likely regressions,
    /// it failed on each, the runner still at work after a minute: a "did you mean" by the edit
    /// distance of the name to each key, and a comparison of the name with each key a
    /// `Character` at a time by offset from the start.
    @Test(arguments: ["A", "\u{1F1EB}\u{1F1F7}"])
    func onlysErrorForALongNameAmongLongKeysDoesNotHang(character: String) throws {
        let body = String(repeating: character, count: 40_000)
        let fake = try FakeBinary(
            list: "AppTests.Suite/sends()\n", coverage: coverageJSON(boxes(of: body)), mutantOutput: "", mutantStatus: 0)
        defer { fake.remove() }
        let message = Lines()
        let ended = finishes(within: 60) {
            do {
                _ = try MutantsRunner(options: fake.options(only: "Box0<" + body + "]")) { _ in }.run()
            } catch {
                message.append("\(error)")
            }
        }
        try #require(ended, "--only's error for keys of 40,000 characters took over a minute")
        let text = message.all.joined()
        #expect(text.hasPrefix("no registration \"Box0<"), "\(text.prefix(200))")
        #expect(text.count < 5_000, "--only's error is \(text.count) characters long")
    }
}
