import Foundation
import Testing
import WiringTestHelpers

// Whole test runs, in child processes of the test binary: what XCTest and Swift Testing runs
// (serial and parallel) write as wiring coverage when they end, added up when they are one
// `swift test`, and what the isolation sentinel reports in them.

@Suite("Whole test runs", .enabled(if: ChildProcess.isSupported))
struct ChildRunTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WiringRuns-\(UUID())")

    /// Where the children write their coverage report.
    private var reportPath: String { directory.appendingPathComponent("wiring-coverage.txt").path }

    /// Runs the Swift Testing suite `suite` in a child process, whose case `name` enables it.
    @discardableResult
    private func runSwiftTesting(
        _ suite: String, case name: String, serially: Bool = false, environment: [String: String] = [:]
    ) throws -> ChildProcess.Outcome {
        let arguments = ["--testing-library", "swift-testing"] + (serially ? ["--no-parallel"] : []) + ["--filter", suite]
        let outcome = try ChildProcess.run(name, arguments: arguments, timeout: 60, environment: environment)
        #expect(outcome.succeeded, "\(outcome)")
        return outcome
    }

    /// Runs the XCTest class `testClass` of WiringXCTestTests in a child process, whose case
    /// `name` enables it.
    @discardableResult
    private func runXCTest(
        _ testClass: String, case name: String, environment: [String: String] = [:]
    ) throws -> ChildProcess.Outcome {
        try ChildProcess.run(name, entry: "WiringXCTestTests.\(testClass)", timeout: 60, environment: environment)
    }

    private func report() throws -> String {
        try String(contentsOfFile: reportPath, encoding: .utf8)
    }

    @Test(.timeLimit(.minutes(4)), arguments: [false, true])
    func aSwiftTestingRunCountsEachTestOnce(serially: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }

        try runSwiftTesting(
            "CoverageChildSuite", case: "swift-testing-coverage", serially: serially,
            environment: ["WIRING_COVERAGE": reportPath, "WIRING_COVERAGE_RUN": "\(UUID())"])

        // checkout(index:) and cart(index:) count once each, whatever their 8 cases did;
        // overridesWhatItNeverResolves() resolved nothing.
        #expect(try report() == """
            Wiring coverage: 4 of 5 registrations resolved by 4 tests (80%)

            Registrations, with how many tests resolved each:
              4  Network [.container] at App/Setup.swift:12
              3  Cart [.graph] at App/Setup.swift:14
              1  Payments [.graph] at App/Setup.swift:15
              1  Checkout [.graph] at App/Setup.swift:16
              0  Logger [.container] at App/Setup.swift:20

            Never resolved by a test (1):
              Logger [.container] at App/Setup.swift:20

            Overrides and fakes no test used (1):
              override Payments [.graph] at AppTests/PaymentsTests.swift:7

            """)
    }

    @Test(.timeLimit(.minutes(4)))
    func anXCTestRunCountsEachTest() throws {
        defer { try? FileManager.default.removeItem(at: directory) }

        let outcome = try runXCTest(
            "CoverageChildXCTests", case: "xctest-coverage",
            environment: ["WIRING_COVERAGE": reportPath, "WIRING_COVERAGE_RUN": "\(UUID())"])

        #expect(outcome.output.contains("Executed 3 tests, with 0 failures"), "\(outcome)")
        #expect(try report().hasPrefix("""
            Wiring coverage: 4 of 5 registrations resolved by 3 tests (80%)

            Registrations, with how many tests resolved each:
              3  Network [.container] at App/Setup.swift:12
              2  Cart [.graph] at App/Setup.swift:14
              1  Payments [.graph] at App/Setup.swift:15
              1  Checkout [.graph] at App/Setup.swift:16
              0  Logger [.container] at App/Setup.swift:20

            """))
    }

    @Test(.timeLimit(.minutes(4)))
    func xctestAndSwiftTestingProcessesOfOneRunAddUp() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["WIRING_COVERAGE": reportPath, "WIRING_COVERAGE_RUN": "\(UUID())"]

        // As `swift test` runs them: XCTest's process, then Swift Testing's.
        try runXCTest("CoverageChildXCTests", case: "xctest-coverage", environment: environment)
        try runSwiftTesting("CoverageChildSuite", case: "swift-testing-coverage", environment: environment)

        #expect(try report() == """
            Wiring coverage: 4 of 5 registrations resolved by 7 tests (80%)

            Registrations, with how many tests resolved each:
              7  Network [.container] at App/Setup.swift:12
              5  Cart [.graph] at App/Setup.swift:14
              2  Payments [.graph] at App/Setup.swift:15
              2  Checkout [.graph] at App/Setup.swift:16
              0  Logger [.container] at App/Setup.swift:20

            Never resolved by a test (1):
              Logger [.container] at App/Setup.swift:20

            Overrides and fakes no test used (1):
              override Payments [.graph] at AppTests/PaymentsTests.swift:7

            """)
        let json = try String(
            contentsOfFile: directory.appendingPathComponent("wiring-coverage.json").path, encoding: .utf8)
        #expect(json.contains(#""totals": { "registrations": 5, "resolved": 4, "tests": 7, "percent": 80 },"#))
        #expect(json.contains(#"{ "kind": "override", "key": "Payments", "scope": ".graph", "file": "AppTests/PaymentsTests.swift", "line": 7, "tests": 0 }"#))
    }

    /// The coverage article shows the report and the JSON of `swift test --filter CheckoutTests`: this
    /// package's CheckoutTests, XCTest's and Swift Testing's, which the article shows too.
    @Test(.timeLimit(.minutes(4)))
    func theCoverageArticleShowsTheReportOfARealRun() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["WIRING_COVERAGE": reportPath, "WIRING_COVERAGE_RUN": "\(UUID())"]
        try runXCTest("CheckoutTests", case: "readme", environment: environment)
        try runSwiftTesting("CheckoutTests", case: "readme", environment: environment)

        let article = try String(contentsOf: Self.packageRoot.appendingPathComponent(Self.coverageArticle), encoding: .utf8)
        let command = "WIRING_COVERAGE=.build/wiring-coverage.txt swift test --filter CheckoutTests"
        #expect(Self.block("text", after: command, in: article) == (try report()))
        let json = try String(contentsOfFile: directory.appendingPathComponent("wiring-coverage.json").path, encoding: .utf8)
        #expect(Self.block("json", after: command, in: article) == json)
    }

    /// The article that shows the coverage report and the sentinel's warnings of these runs.
    private static let coverageArticle = "TestSupport/WiringTestSupport/Documentation.docc/CoverageAndTheSentinel.md"

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // WiringSwiftTestingTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()

    /// The first ```language block of `markdown` after the line `marker`, with a newline after
    /// each line, as the report files end.
    private static func block(_ language: String, after marker: String, in markdown: String) -> String? {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == marker }),
            let fence = lines[start...].firstIndex(where: { $0 == "```\(language)" }),
            let end = lines[(fence + 1)...].firstIndex(where: { $0 == "```" })
        else { return nil }
        return lines[(fence + 1)..<end].map { $0 + "\n" }.joined()
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestTheSentinelFailsTheTestsConcerned() throws {
        let outcome = try runXCTest("SentinelChildXCTests", case: "xctest-sentinel")

        #expect(outcome.output.contains("Executed 5 tests, with 5 failures"), "\(outcome)")
        let test1 = "SentinelChildXCTests.test1LeavesALayerPushed"
        let test2 = "SentinelChildXCTests.test2ResolvesThroughTheLayerLeftPushed"
        let test3 = "SentinelChildXCTests.test3KeepsItsContainer"
        let test4 = "SentinelChildXCTests.test4ResolvesTheKeptContainer"
        let test5 = "SentinelChildXCTests.test5FallsBackToTheSharedContainerOnAnotherQueue"
        let failures = [
            // At the push, in the test that pushed it: XCTest's teardown is the last moment it can fail.
            """
            WiringXCTestTests/ChildRunXCTests.swift:44: error: \(test1) : unbalanced-push: layer "offline", pushed at \
            WiringXCTestTests/ChildRunXCTests.swift:44 during \(test1), was never popped
            """,
            """
            \(test2):0: error: \(test2) : leaked-layer: layer "offline", pushed on a shared TestContainer during \(test1), \
            is still pushed while \(test2) resolves through it, so \(test2) gets that test's overrides and the instances \
            made in the layer
              fix: pop the layer in the test that pushes it (`defer { test.popLayer() }`; in XCTest, `pushLayer(_:on:)` \
            pops it at teardown), or use `test.withOverrides({ layer in … }) { … }`, whose layer only the test's own task sees
            """,
            """
            \(test4):0: error: \(test4) : ended-test-container: the test container `makeTestContainer(base:)` made for \
            \(test3) was resolved from after \(test3) ended, during \(test4)
              fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
            """,
            """
            \(test5):0: error: \(test5) : shared-assigned: \(test5) assigned a resolver to Container.shared, which every \
            test in the process shares: tests running in parallel resolve through it, and it outlives \(test5)
              fix: bind the test's container to the test's task instead, with `Container.withCurrent(test) { … }` or the \
            `.testContainer` trait (WiringSwiftTesting); set Container.shared once, at app launch, not in tests
            """,
            """
            \(test5):0: error: \(test5) : shared-fallback: Container.shared answered @Injected, @LazyInjected or \
            Container.injectionResolver in \(test5), which has a test container of its own: the code that resolved does \
            not see it (it runs outside Container.withCurrent, in a Task.detached or in a callback on another queue), so \
            it used the app's real dependencies
              fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand that \
            code the resolver it should use
            """,
        ]
        for failure in failures {
            #expect(outcome.output.contains(failure), "\(outcome)")
        }
        #expect(!outcome.output.contains("no running test could be failed for"), "\(outcome)")
        // The coverage article shows two of them, as this run prints them.
        let shown = try #require(try Self.articleBlock(startingWith: "\(test2):0: error: \(test2) : leaked-layer"))
        #expect(shown.split(separator: "\n").allSatisfy { outcome.output.contains($0) }, "\(shown)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestTheSentinelNamesTheFirstTestToUseTheHelpers() throws {
        let outcome = try runXCTest("FirstTestChildXCTests", case: "xctest-first-test")

        let test1 = "FirstTestChildXCTests.test1KeepsItsContainer"
        let test2 = "FirstTestChildXCTests.test2ResolvesTheKeptContainer"
        #expect(outcome.output.contains("Executed 2 tests, with 1 failure"), "\(outcome)")
        #expect(outcome.output.contains("""
            \(test2) : ended-test-container: the test container `makeTestContainer(base:)` made for \(test1) was \
            resolved from after \(test1) ended, during \(test2)
            """), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inXCTestALayerLeftPushedIsCaughtWhenTheTestsRunAloneWithoutHelpers() throws {
        let outcome = try runXCTest("LeakedLayerChildXCTests", case: "xctest-leaked-layer")

        let test1 = "LeakedLayerChildXCTests.test1LeavesALayerPushed"
        let test2 = "LeakedLayerChildXCTests.test2ResolvesThroughTheLayerLeftPushed"
        #expect(outcome.output.contains("Executed 2 tests, with 1 failure"), "\(outcome)")
        #expect(outcome.output.contains("""
            \(test2):0: error: \(test2) : leaked-layer: layer "offline", pushed on a shared TestContainer during \(test1), \
            is still pushed while \(test2) resolves through it
            """), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inSwiftTestingALayerLeftPushedIsCaughtWhenTheTestsRunAloneWithoutHelpers() throws {
        let outcome = try ChildProcess.run(
            "swift-testing-leaked-layer",
            arguments: ["--testing-library", "swift-testing", "--filter", "LeakedLayerChildSuite"], timeout: 60)

        let suite = "WiringSwiftTestingTests.LeakedLayerChildSuite"
        #expect(!outcome.succeeded, "the test resolving through the layer fails: \(outcome)")
        #expect(outcome.output.contains("""
            leaked-layer: layer "offline", pushed on a shared TestContainer during \(suite)/leavesALayerPushed(), is \
            still pushed while \(suite)/resolvesThroughTheLayerLeftPushed() resolves through it
            """), "\(outcome)")
        // At the test's declaration, not in this library.
        #expect(outcome.output.contains("ChildRunSuites.swift:"), "\(outcome)")
        #expect(!outcome.output.contains("TestIdentification.swift"), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inSwiftTestingAFallbackInATestsOwnTaskFailsThatTestAloneWithoutHelpers() throws {
        let outcome = try ChildProcess.run(
            "swift-testing-fallback",
            arguments: ["--testing-library", "swift-testing", "--filter", "FallbackChildSuite"], timeout: 60)

        let test = "WiringSwiftTestingTests.FallbackChildSuite/fallsBackInATaskItCreated()"
        #expect(!outcome.succeeded, "\(outcome)")
        #expect(outcome.output.contains(
            "shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver in \(test), "),
            "\(outcome)")
        // Known to be that test's: no list of suspects at the end of the run.
        #expect(!outcome.output.contains("no running test could be failed for"), "\(outcome)")
    }

    @Test(.timeLimit(.minutes(4)))
    func inSwiftTestingCodeOfNoTestIsAWarningAtTheEnd() throws {
        let outcome = try runSwiftTesting("SentinelChildSuite", case: "swift-testing-sentinel")

        let fallbackTest = "WiringSwiftTestingTests.SentinelChildSuite/fallsBackInADetachedTask()"
        let leavingTest = "WiringSwiftTestingTests.SentinelChildSuite/leavesWorkRunning()"
        #expect(outcome.sentinelWarnings == """
            Wiring: 2 findings no running test could be failed for
            warning: shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver \
            in code no test is known for (a Task.detached, a callback on another queue) while \(fallbackTest) ran with a \
            test container of its own: that code used the app's real dependencies
              fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand that \
            code the resolver it should use
            warning: ended-test-container: the test container `.testContainer` made for \(leavingTest) was resolved \
            from after \(leavingTest) ended, by code still running after it (an unawaited task, a callback, a stored reference)
              fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
            """, "\(outcome)")
        // As the coverage article shows it.
        #expect(try Self.articleBlock(startingWith: "Wiring: 2 findings") == outcome.sentinelWarnings + "\n")
    }

    /// The ```text block of the coverage article whose first line starts with `prefix`.
    private static func articleBlock(startingWith prefix: String) throws -> String? {
        let article = try String(contentsOf: packageRoot.appendingPathComponent(coverageArticle), encoding: .utf8)
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
        guard let fence = lines.indices.first(where: { lines[$0] == "```text" && lines[$0 + 1].hasPrefix(prefix) }),
            let end = lines[(fence + 1)...].firstIndex(where: { $0 == "```" })
        else { return nil }
        return lines[(fence + 1)..<end].map { $0 + "\n" }.joined()
    }
}
