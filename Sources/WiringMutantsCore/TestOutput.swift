import Foundation

/// What a test run printed, as far as `wiring-mutants` reads it: the tests that failed, in the
/// order they failed.
package enum TestOutput {
    /// The tests `output` says failed, first failure first, each once: XCTest's
    /// `Test Case 'Class.method' failed` (`'-[Module.Class method]'` on macOS) and Swift
    /// Testing's `✘ Test name() failed after …`, as `printedName(_:)` gives them (a display
    /// name in its quotes); not Swift Testing's summary of the run.
    package static func failedTests(in output: String) -> [String] {
        var failed: [String] = []
        for line in withoutColors(output).split(whereSeparator: \.isNewline) {
            guard let name = failedTest(onLine: Substring(line)), !failed.contains(name) else { continue }
            failed.append(name)
        }
        return failed
    }

    private static func failedTest(onLine line: Substring) -> String? {
        if line.hasPrefix("Test Case '"), line.contains("' failed") {
            let name = line.dropFirst("Test Case '".count).prefix { $0 != "'" }
            guard name.hasPrefix("-[") else { return String(name) }
            // `-[Module.Class method]` → `Class.method`, as coverage names it.
            let parts = name.dropFirst(2).dropLast().split(separator: " ")
            guard parts.count == 2 else { return String(name) }
            let type = parts[0].split(separator: ".").last ?? parts[0]
            return "\(type).\(parts[1])"
        }
        // `✘ Test name() failed after 0.1 seconds…`, not `✘ Test name() recorded an issue at …`,
        // whose message may say `failed` too.
        if let mark = line.range(of: "✘ Test "), let end = line.range(of: " failed after ", range: mark.upperBound..<line.endIndex),
            !line[mark.upperBound..<end.lowerBound].contains(" recorded an issue")
        {
            return printedName(line[mark.upperBound..<end.lowerBound])
        }
        return nil
    }

    /// The test a Swift Testing line names: `name()`, `"display name"`, without the count of
    /// a parameterized test's cases (`verify(x:) with 3 test cases`); `nil` for the run's own
    /// summary (`Test run with 9 tests in 2 suites`), which is no test: a function's name has
    /// parentheses, a display name quotes.
    static func printedName(_ printed: Substring) -> String? {
        if printed.hasPrefix("run with "), printed.dropFirst("run with ".count).first?.isNumber == true { return nil }
        if let with = printed.range(of: " with ", options: .backwards),
            let count = printed[with.upperBound...].split(separator: " ", maxSplits: 1).first,
            count.allSatisfy(\.isNumber), printed[with.upperBound...].dropFirst(count.count).hasPrefix(" test case")
        {
            return String(printed[..<with.lowerBound])
        }
        return String(printed)
    }

    /// Whether `printed`, a name a Swift Testing line gives, is a display name (`@Test("…")`),
    /// which says nothing of the function's name.
    package static func isDisplayName(_ printed: String) -> Bool {
        printed.hasPrefix("\"")
    }

    /// Every test `output` names by a Swift Testing line (started, passed, failed, skipped),
    /// as `printedName(_:)` gives them, each once.
    package static func swiftTestingNames(in output: String) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for line in withoutColors(output).split(whereSeparator: \.isNewline) {
            guard let mark = line.range(of: " Test ") else { continue }
            let rest = line[mark.upperBound...]
            let ends = [" started.", " passed after ", " failed after ", " skipped"].compactMap { rest.range(of: $0)?.lowerBound }
            guard let end = ends.min(), !rest[..<end].contains(" recorded an issue"), let name = printedName(rest[..<end]),
                seen.insert(name).inserted
            else { continue }
            names.append(name)
        }
        return names
    }

    /// What a test process of the toolkit prints when a whole-graph check ran under a mutant
    /// (`WiringMutant.verificationMarker` in WiringTestSupport, which this module does not
    /// import: the two must read the same).
    static let verificationMarker = "wiring-mutants: verification ran under WIRING_MUTANT="

    /// The tests in which, by `output`, a whole-graph check under `mutant` (`Key:mutation`)
    /// found problems, and so failed: `<marker><mutant> in test <test>: verifyWiring, 2 problems`.
    package static func testsVerificationFailed(in output: String, under mutant: String) -> [String] {
        let lead = verificationMarker + mutant + " in test "
        var tests: [String] = []
        for line in output.split(whereSeparator: \.isNewline) {
            guard let start = line.range(of: lead)?.upperBound, let colon = line.range(of: ": ", options: .backwards),
                colon.lowerBound > start, let comma = line[colon.upperBound...].range(of: ", ", options: .backwards),
                let problems = Int(line[comma.upperBound...].prefix { $0.isNumber }), problems > 0
            else { continue }
            let test = String(line[start..<colon.lowerBound])
            if !tests.contains(test) { tests.append(test) }
        }
        return tests
    }

    /// The test `output` last says started and never says ended: the one running when the
    /// process crashed (Swift Testing runs tests in parallel: then one of those running).
    /// XCTest's `Test Case 'Class.method' started`, Swift Testing's `◇ Test name() started.`
    package static func testRunningAtTheEnd(of output: String) -> String? {
        var running: String?
        for line in withoutColors(output).split(whereSeparator: \.isNewline) {
            if line.hasPrefix("Test Case '") {
                let name = String(line.dropFirst("Test Case '".count).prefix { $0 != "'" })
                if line.contains("' started") {
                    running = name
                } else if running == name {
                    running = nil
                }
            } else if let mark = line.range(of: "◇ Test "), line.hasSuffix(" started.") {
                running = String(line[mark.upperBound...].dropLast(" started.".count))
            } else if let mark = line.range(of: "✔ Test ") ?? line.range(of: "✘ Test "), let name = running,
                line[mark.upperBound...].hasPrefix(name + " passed") || line[mark.upperBound...].hasPrefix(name + " failed")
            {
                running = nil
            }
        }
        return running
    }

    /// `output` without terminal color codes (`ESC [ … m`).
    static func withoutColors(_ output: String) -> String {
        guard output.contains("\u{1B}[") else { return output }
        var plain = ""
        var inCode = false
        for scalar in output.unicodeScalars {
            if inCode {
                if scalar == "m" { inCode = false }
            } else if scalar == "\u{1B}" {
                inCode = true
            } else {
                plain.unicodeScalars.append(scalar)
            }
        }
        return plain
    }

    /// Whether `failed`, a name a run printed, is the test coverage names `name`: the same, or
    /// Swift Testing's function name at the end of its identifier.
    package static func name(_ failed: String, isTest name: String) -> Bool {
        failed == name || name.hasSuffix("/\(failed)") || name.hasSuffix(".\(failed)")
    }
}
