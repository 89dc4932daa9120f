import Wiring

/// What the tests exercised of the app's wiring: for every registration of every base container
/// that tests wrapped in a ``TestContainer``, how many tests resolved it; which no test resolved;
/// and which overrides and fakes no test used.
///
/// Run the suite with `WIRING_COVERAGE=.build/wiring-coverage.txt swift test` and the report
/// is written there when the test process ends, with JSON beside it (`wiring-coverage.json`).
/// In the process, ``current`` gives the same aggregate so far:
///
/// ```swift
/// let coverage = WiringCoverage.current
/// print(coverage)                  // Wiring coverage: 41 of 47 registrations resolved by 132 tests (87%)
/// for entry in coverage.unresolved { print(entry) }
/// ```
///
/// A registration is identified by its key and its site, not by the container holding it, so
/// containers built by the same function in many tests add up. A test is one test function
/// (each argument of a parameterized one counts towards it); where no helper module tells the
/// test support which test runs, each test container counts as one test.
public struct WiringCoverage: Sendable, Equatable, CustomStringConvertible {
    /// A registration of a base container, an override or a fake, and how many tests resolved it.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// Where an entry comes from.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A registration of a base container (or of a parent of one).
            case registration
            /// An override of a test container's layer, or a registration made on the test container.
            case override
            /// A fake of a test container's ``Fakes``.
            case fake
        }

        /// Where it comes from.
        public let kind: Kind
        /// Its key, as `ServiceKey` describes it: `Database (name: "primary")`.
        public let key: String
        /// Its scope: `.container`; several, comma-separated, when containers registered it differently.
        public let scope: String
        /// Where it was registered.
        public let site: RegistrationSite
        /// How many tests resolved it.
        public let testCount: Int
        /// How many tests a test container refused it in, a live-only registration nothing
        /// overrode or faked: reached, but never run, so not counted in ``testCount``.
        public let refusedTestCount: Int
        /// The names of the tests that resolved it, sorted, at most ``listedTestNameLimit`` of
        /// them: which tests `wiring-mutants` runs against a mutant of it.
        package let testNames: [String]
        /// Whether a test container had a fake for it, or its type is `Injectable`: where a
        /// `fake` mutant applies.
        package let hasFake: Bool
        /// The names of the tests whose `verifyWiring` or `wiringManifest` built it (in a
        /// sandbox, so not in ``testCount``), sorted, at most ``listedTestNameLimit``.
        package let verificationTestNames: [String]

        /// How many test names an entry lists: enough to pick the tests of a registration, few
        /// enough that the report of a suite of thousands stays readable.
        static let listedTestNameLimit = 100

        /// An entry; the test support makes them.
        init(
            kind: Kind, key: String, scope: String, site: RegistrationSite, testCount: Int, refusedTestCount: Int = 0,
            testNames: [String] = [], hasFake: Bool = false, verificationTestNames: [String] = []
        ) {
            self.kind = kind
            self.key = key
            self.scope = scope
            self.site = site
            self.testCount = testCount
            self.refusedTestCount = refusedTestCount
            self.testNames = testNames
            self.hasFake = hasFake
            self.verificationTestNames = verificationTestNames
        }

        /// The names of `tests` an entry lists: the first ``listedTestNameLimit``, sorted.
        static func listed(_ tests: some Sequence<String>) -> [String] {
            Array(Set(tests).sorted().prefix(listedTestNameLimit))
        }

        /// `Network [.container] at App/Setup.swift:12`, after `override ` or `fake ` for a double;
        /// ` (live-only, refused in 2 tests)` after one a test container refused.
        public var description: String {
            let prefix = kind == .registration ? "" : "\(kind.rawValue) "
            let refused = refusedTestCount == 0
                ? "" : " (live-only, refused in \(WiringReport.count(refusedTestCount, "test")))"
            return "\(prefix)\(key) [\(scope)] at \(site)\(refused)"
        }

        /// The order of reports: by file, line, key, then kind.
        static func areInReportOrder(_ first: Entry, _ second: Entry) -> Bool {
            if first.site.fileID != second.site.fileID { return first.site.fileID < second.site.fileID }
            if first.site.line != second.site.line { return first.site.line < second.site.line }
            if first.key != second.key { return first.key < second.key }
            return first.kind.rawValue < second.kind.rawValue
        }
    }

    /// The registrations of the base containers, by file and line.
    public let registrations: [Entry]
    /// The overrides and fakes of the test containers, by file and line.
    public let doubles: [Entry]
    /// How many tests resolved something through a test container.
    public let testCount: Int

    /// A report of `entries`, resolved by `testCount` tests in all.
    init(entries: [Entry], testCount: Int) {
        let sorted = entries.sorted(by: Entry.areInReportOrder)
        registrations = sorted.filter { $0.kind == .registration }
        doubles = sorted.filter { $0.kind != .registration }
        self.testCount = testCount
    }

    /// The aggregate of every test container of this process so far: those gone, and those
    /// still alive as they are now.
    public static var current: WiringCoverage {
        CoverageRegistry.shared.current.coverage
    }

    /// The aggregate of `testContainers` alone, as they are now: for a report on a few test
    /// containers, or a check at the end of a suite that made them.
    ///
    /// ```swift
    /// let coverage = WiringCoverage(testContainers: [first, second])
    /// #expect(coverage.unresolved.isEmpty, "\(coverage.render())")
    /// ```
    public init(testContainers: [TestContainer]) {
        var record = CoverageRecord()
        for container in testContainers { record.merge(container.coverage.record()) }
        self = record.coverage
    }

    /// How many registrations of the base containers some test resolved.
    public var resolvedCount: Int {
        registrations.count(where: { $0.testCount > 0 })
    }

    /// The registrations no test resolved, by file and line.
    public var unresolved: [Entry] {
        registrations.filter { $0.testCount == 0 }
    }

    /// The overrides and fakes no test used, by file and line: a test that does not test what
    /// it says, or a double nobody needs any more.
    public var unusedDoubles: [Entry] {
        doubles.filter { $0.testCount == 0 }
    }

    /// The share of registrations resolved, as a whole percentage rounded down (100 with none),
    /// so that 100 means every one.
    public var percent: Int {
        registrations.isEmpty ? 100 : resolvedCount * 100 / registrations.count
    }

    /// The summary line: `Wiring coverage: 41 of 47 registrations resolved by 132 tests (87%)`;
    /// ``render()`` gives the whole report.
    public var description: String {
        let noun = registrations.count == 1 ? "registration" : "registrations"
        let tests = testCount == 1 ? "test" : "tests"
        return "Wiring coverage: \(resolvedCount) of \(registrations.count) \(noun) resolved by \(testCount) \(tests) (\(percent)%)"
    }

    /// The summary line, as ``description`` gives it.
    ///
    /// Deprecated: the same text as `description` (`print(coverage)`, `"\(coverage)"`).
    @available(*, deprecated, renamed: "description", message: "the summary line is the description of the coverage; print the coverage itself")
    public var summary: String { description }

    /// Adds up `other`, the report of other tests (another process of the same run): the tests
    /// that resolved each entry, and the tests in all, are counted together.
    package func adding(_ other: WiringCoverage) -> WiringCoverage {
        struct Identity: Hashable {
            let kind: Entry.Kind
            let key: String
            let site: RegistrationSite
        }
        struct Tally {
            var scopes: Set<String> = []
            var tests = 0
            var refused = 0
            var names: Set<String> = []
            var hasFake = false
            var verifiedBy: Set<String> = []
        }
        var merged: [Identity: Tally] = [:]
        for entry in registrations + doubles + other.registrations + other.doubles {
            let identity = Identity(kind: entry.kind, key: entry.key, site: entry.site)
            merged[identity, default: Tally()].scopes.formUnion(entry.scope.split(separator: ", ").map(String.init))
            merged[identity, default: Tally()].tests += entry.testCount
            merged[identity, default: Tally()].refused += entry.refusedTestCount
            merged[identity, default: Tally()].names.formUnion(entry.testNames)
            if entry.hasFake { merged[identity, default: Tally()].hasFake = true }
            merged[identity, default: Tally()].verifiedBy.formUnion(entry.verificationTestNames)
        }
        let entries = merged.map { identity, tally in
            Entry(
                kind: identity.kind, key: identity.key, scope: tally.scopes.sorted().joined(separator: ", "),
                site: identity.site, testCount: tally.tests, refusedTestCount: tally.refused,
                testNames: Entry.listed(tally.names), hasFake: tally.hasFake,
                verificationTestNames: Entry.listed(tally.verifiedBy))
        }
        return WiringCoverage(entries: entries, testCount: testCount + other.testCount)
    }
}
