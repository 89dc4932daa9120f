import Wiring

extension WiringCoverage {
    /// The report as text, the same for the same tests on every run: the summary, every
    /// registration with how many tests resolved it, those no test resolved, and the overrides
    /// and fakes no test used.
    ///
    /// ```text
    /// Wiring coverage: 3 of 4 registrations resolved by 2 tests (75%)
    ///
    /// Registrations, with how many tests resolved each:
    ///   2  Network [.container] at App/Setup.swift:12
    ///   1  Cart [.graph] at App/Setup.swift:14
    ///   2  Checkout [.graph] at App/Setup.swift:16
    ///   0  Database [.container] at App/Setup.swift:20
    ///
    /// Never resolved by a test (1):
    ///   Database [.container] at App/Setup.swift:20
    ///
    /// Overrides and fakes no test used (1):
    ///   override Network [.container] at AppTests/CheckoutTests.swift:9
    /// ```
    public func render() -> String {
        var sections = [description]
        if registrations.isEmpty {
            sections.append("Registrations, with how many tests resolved each: none")
        } else {
            let width = registrations.map { String($0.testCount).count }.max() ?? 1
            let lines = registrations.map { entry in
                let count = String(entry.testCount)
                return "  " + String(repeating: " ", count: width - count.count) + count + "  \(entry)"
            }
            sections.append((["Registrations, with how many tests resolved each:"] + lines).joined(separator: "\n"))
        }
        sections.append(Self.list(unresolved, titled: "Never resolved by a test"))
        sections.append(Self.list(unusedDoubles, titled: "Overrides and fakes no test used"))
        return sections.joined(separator: "\n\n")
    }

    /// The report as JSON, for tools: the summary, the totals, then every registration and
    /// every double with how many tests resolved it, in the order of ``render()``, one a line;
    /// `resolvedBy` names those tests (sorted, at most 100; `tests` counts them all) and
    /// `"fake": true` marks a registration a fake or its `Injectable` type can stand in for, and
    /// `verifiedBy` names the tests whose `verifyWiring` or `wiringManifest` built it, for
    /// `wiring-mutants`.
    ///
    /// ```json
    /// {
    ///   "format": "wiring-coverage",
    ///   "version": 1,
    ///   "summary": "Wiring coverage: 1 of 2 registrations resolved by 1 test (50%)",
    ///   "totals": { "registrations": 2, "resolved": 1, "tests": 1, "percent": 50 },
    ///   "registrations": [
    ///     { "key": "Network", "scope": ".container", "file": "App/Setup.swift", "line": 12, "tests": 1, "resolvedBy": ["AppTests.NetworkTests/fetch()"] },
    ///     { "key": "Database", "scope": ".container", "file": "App/Setup.swift", "line": 20, "tests": 0 }
    ///   ],
    ///   "doubles": []
    /// }
    /// ```
    public func renderJSON() -> String {
        func object(_ entry: Entry, withKind: Bool) -> String {
            let kind = withKind ? "\"kind\": \(Self.json(entry.kind.rawValue)), " : ""
            return "{ \(kind)\"key\": \(Self.json(entry.key)), \"scope\": \(Self.json(entry.scope)), "
                + "\"file\": \(Self.json(entry.site.fileID)), \"line\": \(entry.site.line), \"tests\": \(entry.testCount)"
                + (entry.refusedTestCount == 0 ? "" : ", \"refused\": \(entry.refusedTestCount)")
                + (entry.hasFake ? ", \"fake\": true" : "")
                + (entry.testNames.isEmpty ? "" : ", \"resolvedBy\": [\(entry.testNames.map(Self.json).joined(separator: ", "))]")
                + (entry.verificationTestNames.isEmpty
                    ? "" : ", \"verifiedBy\": [\(entry.verificationTestNames.map(Self.json).joined(separator: ", "))]")
                + " }"
        }
        func array(_ entries: [Entry], withKind: Bool) -> String {
            guard !entries.isEmpty else { return "[]" }
            let lines = entries.map { "    " + object($0, withKind: withKind) }
            return "[\n" + lines.joined(separator: ",\n") + "\n  ]"
        }
        return """
            {
              "format": "wiring-coverage",
              "version": 1,
              "summary": \(Self.json(description)),
              "totals": { "registrations": \(registrations.count), "resolved": \(resolvedCount), \
            "tests": \(testCount), "percent": \(percent) },
              "registrations": \(array(registrations, withKind: false)),
              "doubles": \(array(doubles, withKind: true))
            }
            """
    }

    /// `title (count):` then the entries, one a line; `title: none` without any.
    private static func list(_ entries: [Entry], titled title: String) -> String {
        guard !entries.isEmpty else { return "\(title): none" }
        return (["\(title) (\(entries.count)):"] + entries.map { "  \($0)" }).joined(separator: "\n")
    }

    /// `text` as a JSON string literal: as a Swift one, whose escapes JSON shares, with the
    /// other control characters as JSON spells them.
    private static func json(_ text: String) -> String {
        var literal = ""
        for scalar in text.swiftLiteral.unicodeScalars {
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                literal.unicodeScalars.append(scalar)
            }
        }
        return literal
    }
}
