import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Wiring coverage in the process: test containers made by the same function add up by key and
// site; each test counts once per registration, whichever containers it resolved through; the
// text and JSON reports, exactly.

/// Runs `body` as the test named `name`, as the helper modules tell the test support.
func asTest<Result>(_ name: String, _ body: () throws -> Result) rethrows -> Result {
    try RunningTests.$bound.withValue(TestRun(name: name), operation: body)
}

/// Three tests, each with its own container made by the same function, and doubles the third
/// one never used; what their coverage reports.
enum ThreeTests {
    static func make() throws -> [TestContainer] {
        let containers = (0..<3).map { _ in TestContainer(base: makeCoverageApp()) }
        try asTest("AppTests.CheckoutTests/checkout()") { _ = try containers[0].resolve(Checkout.self) }
        try asTest("AppTests.CartTests/cart()") { _ = try containers[1].resolve(Cart.self) }
        try asTest("AppTests.NetworkTests/network()") {
            containers[2].override(Payments.self, file: "AppTests/CheckoutTests.swift", line: 9) { _ in
                Payments(network: FakeNetwork())
            }
            containers[2].fakes.register(Analytics.self, file: "AppTests/Fakes.swift", line: 3) { NoopAnalytics() }
            _ = try containers[2].resolve((any Network).self)
        }
        return containers
    }

    static let report = """
        Wiring coverage: 4 of 5 registrations resolved by 3 tests (80%)

        Registrations, with how many tests resolved each:
          3  Network [.container] at App/Setup.swift:12
          2  Cart [.graph] at App/Setup.swift:14
          1  Payments [.graph] at App/Setup.swift:15
          1  Checkout [.graph] at App/Setup.swift:16
          0  Logger [.container] at App/Setup.swift:20

        Never resolved by a test (1):
          Logger [.container] at App/Setup.swift:20

        Overrides and fakes no test used (2):
          override Payments [.graph] at AppTests/CheckoutTests.swift:9
          fake Analytics [.graph] at AppTests/Fakes.swift:3
        """

    static let json = """
        {
          "format": "wiring-coverage",
          "version": 1,
          "summary": "Wiring coverage: 4 of 5 registrations resolved by 3 tests (80%)",
          "totals": { "registrations": 5, "resolved": 4, "tests": 3, "percent": 80 },
          "registrations": [
            { "key": "Network", "scope": ".container", "file": "App/Setup.swift", "line": 12, "tests": 3, "resolvedBy": ["AppTests.CartTests/cart()", "AppTests.CheckoutTests/checkout()", "AppTests.NetworkTests/network()"] },
            { "key": "Cart", "scope": ".graph", "file": "App/Setup.swift", "line": 14, "tests": 2, "resolvedBy": ["AppTests.CartTests/cart()", "AppTests.CheckoutTests/checkout()"] },
            { "key": "Payments", "scope": ".graph", "file": "App/Setup.swift", "line": 15, "tests": 1, "resolvedBy": ["AppTests.CheckoutTests/checkout()"] },
            { "key": "Checkout", "scope": ".graph", "file": "App/Setup.swift", "line": 16, "tests": 1, "resolvedBy": ["AppTests.CheckoutTests/checkout()"] },
            { "key": "Logger", "scope": ".container", "file": "App/Setup.swift", "line": 20, "tests": 0 }
          ],
          "doubles": [
            { "kind": "override", "key": "Payments", "scope": ".graph", "file": "AppTests/CheckoutTests.swift", "line": 9, "tests": 0 },
            { "kind": "fake", "key": "Analytics", "scope": ".graph", "file": "AppTests/Fakes.swift", "line": 3, "tests": 0 }
          ]
        }
        """
}

@Suite("Wiring coverage")
struct WiringCoverageTests {
    @Test func containersMadeByTheSameFunctionAddUpByKeyAndSite() throws {
        let containers = try ThreeTests.make()
        #expect(containers[0] !== containers[1] && containers[1] !== containers[2])

        let coverage = WiringCoverage(testContainers: containers)

        #expect(coverage.render() == ThreeTests.report)
        #expect(coverage.registrations.count == 5)
        #expect(coverage.resolvedCount == 4)
        #expect(coverage.testCount == 3)
        #expect(coverage.percent == 80)
        #expect(coverage.unresolved.map(\.description) == ["Logger [.container] at App/Setup.swift:20"])
        #expect(coverage.unusedDoubles.map(\.kind) == [.override, .fake])
    }

    @Test func theJSONListsEveryEntryWithItsCount() throws {
        let coverage = WiringCoverage(testContainers: try ThreeTests.make())

        #expect(coverage.renderJSON() == ThreeTests.json)
        // What the JSON says is what the report says.
        #expect(try CoverageFile.decode(Data(coverage.renderJSON().utf8)) == coverage)
    }

    @Test func theJSONEscapesKeysAndHasEmptyListsWhenThereIsNothing() throws {
        let base = Container()
        base.register(String.self, name: "a \"quoted\"\\name\u{1}", file: "App/Setup.swift", line: 3) { _ in "" }
        let coverage = WiringCoverage(testContainers: [TestContainer(base: base)])

        #expect(coverage.renderJSON() == #"""
            {
              "format": "wiring-coverage",
              "version": 1,
              "summary": "Wiring coverage: 0 of 1 registration resolved by 0 tests (0%)",
              "totals": { "registrations": 1, "resolved": 0, "tests": 0, "percent": 0 },
              "registrations": [
                { "key": "String (name: \"a \\\"quoted\\\"\\\\name\u0001\")", "scope": ".graph", "file": "App/Setup.swift", "line": 3, "tests": 0 }
              ],
              "doubles": []
            }
            """#)
        #expect(try CoverageFile.decode(Data(coverage.renderJSON().utf8)) == coverage)
    }

    @Test func theJSONNamesAtMostAHundredTestsPerEntryAndWhereAFakeStandsIn() throws {
        let test = TestContainer(base: makeCoverageApp())
        test.fakes.register((any Logger).self) { ConsoleLogger() }
        for number in 0..<101 {
            try asTest("AppTests.NetworkTests/network\(1000 + number)()") { _ = try test.resolve((any Network).self) }
        }
        let coverage = WiringCoverage(testContainers: [test])
        let network = try #require(coverage.registrations.first { $0.key == "Network" })
        let logger = try #require(coverage.registrations.first { $0.key == "Logger" })

        #expect(network.testCount == 101)
        #expect(network.testNames == (1000..<1100).map { "AppTests.NetworkTests/network\($0)()" })
        #expect(!network.hasFake && logger.hasFake)
        let json = coverage.renderJSON()
        #expect(json.contains(#""line": 20, "tests": 0, "fake": true }"#), "\(json)")
        #expect(json.contains(#""line": 12, "tests": 101, "resolvedBy": ["AppTests.NetworkTests/network1000()", "#), "\(json)")
        #expect(!json.contains("network1100()"), "\(json)")
        #expect(try CoverageFile.decode(Data(json.utf8)) == coverage)
        // Two processes of a run: the names of both, still at most a hundred; every test counted.
        let twice = coverage.adding(coverage)
        #expect(twice.registrations.first { $0.key == "Network" }?.testCount == 202)
        #expect(twice.registrations.first { $0.key == "Network" }?.testNames == network.testNames)
        #expect(twice.registrations.first { $0.key == "Logger" }?.hasFake == true)
    }

    @Test func theJSONNamesTheTestsWhoseWholeGraphCheckBuiltAnEntry() throws {
        let test = TestContainer(base: makeCoverageApp())
        asTest("AppTests.WiringTests/wiringIsComplete()") { _ = test.verifyWiring() }
        asTest("AppTests.WiringTests/manifest()") { _ = test.wiringManifest() }
        let coverage = WiringCoverage(testContainers: [test])
        let logger = try #require(coverage.registrations.first { $0.key == "Logger" })

        // Built in a sandbox: checked, not resolved.
        #expect(logger.testCount == 0)
        #expect(logger.verificationTestNames == ["AppTests.WiringTests/manifest()", "AppTests.WiringTests/wiringIsComplete()"])
        let json = coverage.renderJSON()
        #expect(json.contains(
            #""line": 20, "tests": 0, "verifiedBy": ["AppTests.WiringTests/manifest()", "AppTests.WiringTests/wiringIsComplete()"] }"#),
            "\(json)")
        #expect(try CoverageFile.decode(Data(json.utf8)) == coverage)
        #expect(coverage.adding(coverage).registrations.first { $0.key == "Logger" }?.verificationTestNames
            == logger.verificationTestNames)
    }

    @Test func aTestCountsOnceWhicheverContainersAndCasesItResolvedThrough() throws {
        let shared = TestContainer(base: makeCoverageApp())
        let own = TestContainer(base: makeCoverageApp())
        // Two cases of one parameterized test, interleaved with another test, on one container.
        try asTest("AppTests.Suite/first(index:)") { _ = try shared.resolve(Cart.self) }
        try asTest("AppTests.Suite/second()") { _ = try shared.resolve(Checkout.self) }
        try asTest("AppTests.Suite/first(index:)") { _ = try shared.resolve(Cart.self) }
        try asTest("AppTests.Suite/first(index:)") { _ = try own.resolve(Checkout.self) }

        let coverage = WiringCoverage(testContainers: [shared, own])

        #expect(coverage.registrations.map(\.testCount) == [2, 2, 2, 2, 0])
        #expect(coverage.description == "Wiring coverage: 4 of 5 registrations resolved by 2 tests (80%)")
    }

    @Test(.timeLimit(.minutes(4)))
    func testsResolvingInParallelEachCountOnce() async throws {
        let shared = TestContainer(base: makeCoverageApp())
        let own = try await withThrowingTaskGroup(of: TestContainer.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try asTest("AppTests.ParallelTests/test\(index)()") {
                        let own = TestContainer(base: makeCoverageApp())
                        if index.isMultiple(of: 2) {
                            _ = try own.resolve(Checkout.self)
                        } else {
                            _ = try own.resolve(Cart.self)
                        }
                        _ = try shared.resolve((any Network).self)
                        return own
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        let coverage = WiringCoverage(testContainers: own + [shared])

        #expect(coverage.registrations.map(\.description) == [
            "Network [.container] at App/Setup.swift:12", "Cart [.graph] at App/Setup.swift:14",
            "Payments [.graph] at App/Setup.swift:15", "Checkout [.graph] at App/Setup.swift:16",
            "Logger [.container] at App/Setup.swift:20",
        ])
        #expect(coverage.registrations.map(\.testCount) == [12, 12, 6, 6, 0])
        #expect(coverage.description == "Wiring coverage: 4 of 5 registrations resolved by 12 tests (80%)")
    }

    @Test(.timeLimit(.minutes(4)))
    func withNoTestKnownEachTestContainerCountsAsOneTest() async throws {
        // A detached task sees no test, and no helper module binds one.
        let containers = try await Task.detached {
            let containers = (0..<2).map { _ in TestContainer(base: makeCoverageApp()) }
            for container in containers { _ = try container.resolve(Cart.self) }
            return containers
        }.value

        let coverage = WiringCoverage(testContainers: containers)

        #expect(coverage.description == "Wiring coverage: 2 of 5 registrations resolved by 2 tests (40%)")
    }

    @Test func overridesOfLayersGoneAreReportedToo() throws {
        let test = TestContainer(base: makeCoverageApp())
        try asTest("AppTests.OfflineTests/offline()") {
            test.pushLayer("offline")
            test.override((any Network).self, file: "AppTests/OfflineTests.swift", line: 4) { _ in FakeNetwork() }
            test.override((any Logger).self, file: "AppTests/OfflineTests.swift", line: 5) { _ in ConsoleLogger() }
            _ = try test.resolve(Cart.self)
            test.popLayer()
            test.withOverrides({ layer in
                layer.override(Cart.self, file: "AppTests/OfflineTests.swift", line: 9) { _ in Cart(network: FakeNetwork()) }
            }) {}
        }

        let coverage = WiringCoverage(testContainers: [test])

        #expect(coverage.doubles.map { "\($0.testCount) \($0)" } == [
            "1 override Network [.container] at AppTests/OfflineTests.swift:4",
            "0 override Logger [.container] at AppTests/OfflineTests.swift:5",
            "0 override Cart [.graph] at AppTests/OfflineTests.swift:9",
        ])
        #expect(coverage.registrations.map(\.testCount) == [0, 1, 0, 0, 0])
    }

    @Test func theSummaryCountsInWords() throws {
        #expect(WiringCoverage(testContainers: []).description
            == "Wiring coverage: 0 of 0 registrations resolved by 0 tests (100%)")

        let one = Container()
        one.register(Cart.self, file: "App/Setup.swift", line: 1) { _ in Cart(network: FakeNetwork()) }
        let single = TestContainer(base: one)
        try asTest("AppTests.CartTests/cart()") { _ = try single.resolve(Cart.self) }
        #expect(WiringCoverage(testContainers: [single]).description
            == "Wiring coverage: 1 of 1 registration resolved by 1 test (100%)")

        // Rounded down: 100% means every registration.
        let three = Container()
        three.register(Cart.self, file: "App/Setup.swift", line: 1) { _ in Cart(network: FakeNetwork()) }
        three.register(Payments.self, file: "App/Setup.swift", line: 2) { _ in Payments(network: FakeNetwork()) }
        three.register(Checkout.self, file: "App/Setup.swift", line: 3) { r in
            try Checkout(cart: r.resolve(), payments: Payments(network: FakeNetwork()))
        }
        let test = TestContainer(base: three)
        try asTest("AppTests.CheckoutTests/checkout()") { _ = try test.resolve(Checkout.self) }
        #expect(WiringCoverage(testContainers: [test]).description
            == "Wiring coverage: 2 of 3 registrations resolved by 1 test (66%)")
    }

    @Test func theCurrentCoverageHoldsEveryTestContainerOfTheProcess() throws {
        let base = Container()
        let line = #line + 1
        base.register(Receipt.self) { _ in Receipt() }
        var test: TestContainer? = TestContainer(base: base)
        try asTest("AppTests.ReceiptTests/receipt()") { _ = try test?.resolve(Receipt.self) }
        let site = RegistrationSite(fileID: #fileID, line: line)

        // Alive, then gone: counted either way.
        #expect(WiringCoverage.current.registrations.first { $0.site == site }?.testCount == 1)
        test = nil
        #expect(WiringCoverage.current.registrations.first { $0.site == site }?.testCount == 1)
    }
}

@Suite("Wiring coverage files")
struct WiringCoverageFileTests {
    @Test func theJSONGoesBesideTheText() {
        #expect(CoverageFile.jsonPath(forReportAt: ".build/wiring-coverage.txt") == ".build/wiring-coverage.json")
        #expect(CoverageFile.jsonPath(forReportAt: "/tmp/coverage") == "/tmp/coverage.json")
        #expect(CoverageFile.jsonPath(forReportAt: "coverage.json") == "coverage.json.json")
        #expect(CoverageFile.jsonPath(forReportAt: "out.d/.hidden") == "out.d/.hidden.json")
        #expect(CoverageFile.runPath(forReportAt: ".build/wiring-coverage.txt") == ".build/wiring-coverage.txt.run")
    }

    @Test func processesOfOneRunAddUpAndANewRunStartsAfresh() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WiringCoverage-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("reports/wiring-coverage.txt").path
        let containers = (0..<2).map { _ in TestContainer(base: makeCoverageApp()) }
        try asTest("AppTests.CartTests/cart()") { _ = try containers[0].resolve(Cart.self) }
        try asTest("AppTests.CheckoutTests/checkout()") { _ = try containers[1].resolve(Checkout.self) }
        let first = WiringCoverage(testContainers: [containers[0]])
        let second = WiringCoverage(testContainers: [containers[1]])

        try CoverageFile.write(first, to: path, run: "run 1")
        try CoverageFile.write(second, to: path, run: "run 1")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == WiringCoverage(testContainers: containers).render() + "\n")
        #expect(text.hasPrefix("Wiring coverage: 4 of 5 registrations resolved by 2 tests (80%)\n"))
        let json = try String(contentsOfFile: CoverageFile.jsonPath(forReportAt: path), encoding: .utf8)
        #expect(json == WiringCoverage(testContainers: containers).renderJSON() + "\n")
        #expect(try String(contentsOfFile: CoverageFile.runPath(forReportAt: path), encoding: .utf8) == "run 1")

        try CoverageFile.write(second, to: path, run: "run 2")

        #expect(try String(contentsOfFile: path, encoding: .utf8) == second.render() + "\n")
    }

    @Test func aReportThatCannotBeReadIsWrittenAnew() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WiringCoverage-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wiring-coverage.txt").path
        let test = TestContainer(base: makeCoverageApp())
        try asTest("AppTests.CartTests/cart()") { _ = try test.resolve(Cart.self) }
        let coverage = WiringCoverage(testContainers: [test])
        try CoverageFile.write(coverage, to: path, run: "run 1")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: CoverageFile.jsonPath(forReportAt: path)))

        try CoverageFile.write(coverage, to: path, run: "run 1")

        #expect(try String(contentsOfFile: path, encoding: .utf8) == coverage.render() + "\n")
    }
}
