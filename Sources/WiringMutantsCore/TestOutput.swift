import Foundation

/// What a test run printed, as far as `wiring-mutants` reads it: the tests that failed, in the
/// order they failed.
package enum TestOutput {
    /// The tests `output` says failed, first failure first, each once: XCTest's
    /// `Test Case 'Class.method' failed` (`'-[Module.Class method]'` on macOS) and Swift
    /// Testing's `✘ Test name() failed after …`.
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
            return String(line[mark.upperBound..<end.lowerBound])
        }
        return nil
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
