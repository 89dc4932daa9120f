import Foundation
import Testing
import WiringMutantsCore

// The parts of wiring-mutants, each alone: its command line, which mutations apply to a
// registration, how coverage's test names become selections, what a run's output says failed,
// the baseline, progress, and a bounded process killed with its whole group.

@Suite("wiring-mutants, part by part")
struct RunnerPartsTests {
    @Test func theCommandLineGivesTheOptions() throws {
        let options = try MutantsOptions.parse([
            "--target", "AppTests", "--target", "CoreTests", "--only", "Mailer", "--baseline", "b.txt", "--json", "r.json",
            "--format", "json", "--fail-under", "80", "--jobs", "3", "--timeout", "30",
        ])
        #expect(options.targets == ["AppTests", "CoreTests"])
        #expect(options.only == "Mailer" && options.baselinePath == "b.txt" && options.jsonPath == "r.json")
        #expect(options.printsJSON && options.failUnder == 80 && options.jobs == 3 && options.timeout == 30)
        #expect(try MutantsOptions.parse(["--help"]).showsHelp)
    }

    @Test(arguments: [
        (["--fail-under", "120"], "--fail-under 120: write a score from 0 to 100"),
        (["--jobs", "0"], "--jobs 0: write a whole number from 1 to 1024"),
        (["--fail-under", "inf"], "--fail-under inf: write a score from 0 to 100"),
        (["--only"], "--only needs a value (see --help)"),
        (["--format", "xml"], "--format xml: write --format text or --format json"),
        (["--verbose"], #"unknown argument "--verbose" (see --help)"#),
    ])
    func aWrongCommandLineSaysWhatToWrite(arguments: [String], message: String) {
        let error = #expect(throws: MutantsOptions.UsageError.self) { try MutantsOptions.parse(arguments) }
        #expect(error?.description == message)
    }

    @Test func eachMutationAppliesWhereItChangesSomething() {
        func mutations(scope: String, fake: Bool? = nil) -> [Mutation] {
            CoverageInput.Registration(key: "K", scope: scope, file: "f", line: 1, tests: 1, fake: fake).mutations
        }
        #expect(mutations(scope: ".container") == [.unshare, .unregister])
        #expect(mutations(scope: ".transient") == [.unregister])
        #expect(mutations(scope: ".transient", fake: true) == [.unregister, .fake])
        #expect(mutations(scope: ".graph, .transient") == [.unshare, .unregister])
        #expect(mutations(scope: "session") == [.unshare, .unregister])
    }

    @Test func coverageNamesBecomeSelectionsAndUnknownOnesTheWholeTargets() {
        let catalog = TestCatalog(
            xctestList: """
                Listing 3 tests in App.xctest:

                AppTests.CheckoutTests/testPay
                AppTests.CheckoutTests/testRefund
                OtherTests.MoreTests/testMore
                """,
            swiftTestingList: "AppTests.CartSuite/adds(item:)\nAppTests.total()\n",
            targets: ["AppTests"])
        #expect(catalog.xctest == ["AppTests.CheckoutTests/testPay", "AppTests.CheckoutTests/testRefund"])
        #expect(catalog.swiftTesting == ["AppTests.CartSuite/adds(item:)", "AppTests.total()"])

        let selection = catalog.selection(of: ["CheckoutTests.testPay", "AppTests.CartSuite/adds(item:)"])
        #expect(selection == TestSelection(xctest: ["AppTests.CheckoutTests/testPay"], swiftTesting: ["AppTests.CartSuite/adds(item:)"]))
        #expect(selection.swiftTestingFilter == #"^AppTests\.CartSuite/adds\(item:\)"#)
        #expect(selection.swiftTestFilter == #"^AppTests\.CartSuite/adds\(item:\)|^AppTests\.CheckoutTests/testPay"#)

        let whole = catalog.selection(of: ["CheckoutTests.testPay", "TestContainer #3"])
        #expect(whole == TestSelection(xctest: ["AppTests.CheckoutTests"], swiftTesting: ["AppTests"], wholeTargets: ["AppTests"]))
        #expect(whole.swiftTestFilter == #"^AppTests\."#)
    }

    @Test func theOutputSaysWhichTestsFailedFirstFirst() {
        let output = """
            Test Case 'CheckoutTests.testPay' started at 2026-01-01 10:00:00.000
            /app/Tests/CheckoutTests.swift:12: error: CheckoutTests.testPay : XCTAssertEqual failed
            Test Case 'CheckoutTests.testPay' failed (0.002 seconds)
            Test Case '-[AppTests.CartTests testAdd]' failed (0.001 seconds).
            ✘ Test brokenShowsErrors() recorded an issue at DemoTests.swift:39:9: Expectation failed: a == b
            \u{1B}[91m✘\u{1B}[0m Test total() failed after 0.001 seconds with 1 issue.
            Test Case 'CheckoutTests.testPay' failed (0.002 seconds)
            """
        #expect(TestOutput.failedTests(in: output) == ["CheckoutTests.testPay", "CartTests.testAdd", "total()"])
        #expect(TestOutput.name("total()", isTest: "AppTests.total()"))
        #expect(TestOutput.name("adds(item:)", isTest: "AppTests.CartSuite/adds(item:)"))
        #expect(!TestOutput.name("adds(item:)", isTest: "AppTests.CartSuite/readds(item:)"))
    }

    @Test func aCrashNamesTheTestRunningWhenItCrashed() {
        #expect(TestOutput.testRunningAtTheEnd(of: """
            Test Case 'CheckoutTests.testPay' started at 2026-01-01 10:00:00.000
            Test Case 'CheckoutTests.testPay' passed (0.002 seconds)
            Test Case 'CheckoutTests.testRefund' started at 2026-01-01 10:00:00.010
            Fatal error: Unexpectedly found nil
            """) == "CheckoutTests.testRefund")
        #expect(TestOutput.testRunningAtTheEnd(of: """
            ◇ Test pay() started.
            ◇ Test refund() started.
            ✔ Test refund() passed after 0.001 seconds.
            """) == nil)
        #expect(TestOutput.testRunningAtTheEnd(of: "◇ Test pay() started.\nFatal error\n") == "pay()")
    }

    @Test func theBaselineListsAcceptedSurvivors() throws {
        let baseline = try Baseline(text: "# accepted\nMailer:unshare\n\nDatabase (name: \"a\"):fake\n", path: "b.txt")
        #expect(baseline.accepted == ["Mailer:unshare", "Database (name: \"a\"):fake"])
        let error = #expect(throws: MutantsOptions.UsageError.self) { try Baseline(text: "Mailer\n", path: "b.txt") }
        #expect(error?.description
            == #"b.txt:1: "Mailer" names no mutant; write <key>:<mutation>, the mutation one of unshare, unregister, fake, as the report names it"#)
    }

    @Test func progressSaysDoneOfTotalKilledElapsedAndLeft() {
        #expect(Progress.line(done: 3, total: 12, killed: 2, elapsed: 6) == "[3/12] 2 killed, 6s elapsed, about 18s left")
        let lines = Collected()
        let progress = Progress(total: 2, isTerminal: false) { lines.append($0) }
        progress.finished(killed: true)
        progress.finished(killed: false)
        #expect(lines.all.count == 2)
        #expect(lines.all.last?.hasPrefix("[2/2] 1 killed, ") == true)
        #expect(lines.all.allSatisfy { $0.hasSuffix("\n") && !$0.contains("\r") })
    }

    @Test(.timeLimit(.minutes(4)))
    func aRunPastItsLimitIsKilledWithWhatItStarted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("BoundedProcess-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pidFile = (directory as NSString).appendingPathComponent("child.pid")

        // A shell that starts a sleeper in the background, says its id, and waits.
        let (outcome, output) = try BoundedProcess.capture(
            "/bin/sh", arguments: ["-c", "sleep 60 & echo $! > \(pidFile); echo started; wait"], environment: [:],
            in: directory, timeout: 1)

        #expect(outcome.timedOut && outcome.wasSignalled)
        #expect(outcome.seconds < 10)
        #expect(output == "started\n")
        let child = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The sleeper went with the group (it may linger a moment as a zombie of init).
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(child, 0) != 0 || Self.isZombie(child)
            if !gone { usleep(20_000) }
        }
        #expect(gone)

        let quick = try BoundedProcess.capture("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"], environment: [:], in: directory, timeout: 10)
        #expect(quick.outcome.status == 3 && !quick.outcome.wasSignalled && !quick.outcome.timedOut)
        #expect(quick.output == "out\nerr\n")
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
