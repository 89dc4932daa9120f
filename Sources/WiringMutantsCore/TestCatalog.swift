import Foundation

/// The tests of a built test binary, as its own test lists name them, and how to select the
/// tests a coverage report names: coverage names an XCTest test `Class.method`, the list
/// `Module.Class/method`; a Swift Testing test is `Module.Suite/function()` in both.
package struct TestCatalog: Sendable {
    /// XCTest's tests, `Module.Class/method`, of the targets run.
    package let xctest: [String]
    /// Swift Testing's tests, by identifier, of the targets run.
    package let swiftTesting: [String]
    /// The test targets run; every module with tests when none was asked for.
    package let targets: [String]
    /// XCTest's tests by the name coverage gives them.
    private let xctestByCoverageName: [String: [String]]

    /// The catalog of what `xctestList` (`<binary> --list-tests`) and `swiftTestingList`
    /// (`<binary> --testing-library swift-testing --list-tests`) printed, keeping `targets` only.
    package init(xctestList: String, swiftTestingList: String, targets: [String]) {
        func tests(in list: String) -> [String] {
            list.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { line in
                    // A test is `Module.Something`; headers and summaries have spaces.
                    !line.contains(" ") && line.contains(".") && (targets.isEmpty || targets.contains(Self.module(of: line)))
                }
        }
        xctest = tests(in: xctestList).filter { $0.contains("/") }
        swiftTesting = tests(in: swiftTestingList)
        self.targets = targets.isEmpty ? Array(Set((xctest + swiftTesting).map(Self.module))).sorted() : targets
        var byName: [String: [String]] = [:]
        for test in xctest {
            let withoutModule = test.drop { $0 != "." }.dropFirst()
            byName[withoutModule.replacingOccurrences(of: "/", with: "."), default: []].append(test)
        }
        xctestByCoverageName = byName
    }

    /// The module of test `identifier`: what comes before its first `.`.
    static func module(of identifier: String) -> String {
        String(identifier.prefix { $0 != "." })
    }

    /// The tests of the targets run that coverage names `name`, as the binary selects them;
    /// empty when none can be selected alone (a test no helper module named: `TestContainer #3`).
    package func identifiers(of name: String) -> [String] {
        if let xctest = xctestByCoverageName[name] { return xctest }
        return swiftTesting.contains(name) ? [name] : []
    }

    /// How to run the tests coverage names `names`, each alone; the whole targets when one of
    /// them cannot be selected alone.
    package func selection(of names: [String]) -> TestSelection {
        var selection = TestSelection(xctest: [], swiftTesting: [])
        for name in names {
            let found = identifiers(of: name)
            guard !found.isEmpty else { return wholeTargets }
            for identifier in found {
                if xctest.contains(identifier) {
                    selection.xctest.append(identifier)
                } else {
                    selection.swiftTesting.append(identifier)
                }
            }
        }
        selection.xctest = Array(Set(selection.xctest)).sorted()
        selection.swiftTesting = Array(Set(selection.swiftTesting)).sorted()
        return selection
    }

    /// Every test of the targets run: XCTest's by class (XCTest selects no module whole),
    /// Swift Testing's by module.
    package var wholeTargets: TestSelection {
        let classes = Set(xctest.map { String($0.prefix { $0 != "/" }) })
        let swiftTestingTargets = Set(swiftTesting.map(Self.module))
        return TestSelection(
            xctest: classes.sorted(), swiftTesting: targets.filter(swiftTestingTargets.contains), wholeTargets: targets)
    }
}

/// Tests to run: XCTest's by selector (`Module.Class`, `Module.Class/method`), Swift Testing's
/// by identifier, or by module for whole targets.
package struct TestSelection: Equatable, Sendable {
    package var xctest: [String]
    package var swiftTesting: [String]
    /// The modules run whole, if the selection is every test of some targets.
    package var wholeTargets: [String]?

    package init(xctest: [String], swiftTesting: [String], wholeTargets: [String]? = nil) {
        self.xctest = xctest
        self.swiftTesting = swiftTesting
        self.wholeTargets = wholeTargets
    }

    package var isEmpty: Bool { xctest.isEmpty && swiftTesting.isEmpty }

    /// The regular expression Swift Testing's `--filter` (and `swift test --filter`) takes for
    /// these tests.
    package var swiftTestingFilter: String? {
        swiftTesting.isEmpty ? nil : Self.alternatives(swiftTesting, modules: wholeTargets != nil)
    }

    /// The `swift test --filter` pattern that selects every test here, both frameworks.
    package var swiftTestFilter: String {
        if let wholeTargets { return Self.alternatives(wholeTargets, modules: true) }
        return Self.alternatives(Array(Set(xctest + swiftTesting)).sorted(), modules: false)
    }

    private static func alternatives(_ identifiers: [String], modules: Bool) -> String {
        identifiers.map { identifier in
            // `/` needs no escape in a pattern: left as it is, the filter reads as the test's name.
            let escaped = NSRegularExpression.escapedPattern(for: identifier).replacingOccurrences(of: "\\/", with: "/")
            // A prefix: Swift Testing may add to an identifier (a parameterized case), never take away.
            return modules ? "^\(escaped)\\." : "^\(escaped)"
        }.joined(separator: "|")
    }
}
