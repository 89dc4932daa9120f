import Testing
import Wiring
import WiringTestSupport

// The test support's explanations and reports are bounded as a resolve's error is: a long name
// shown by its ends and its length, the registrations of a type by the first few and a count,
// a path or cycle by its ends.

private final class BRNode {}
private final class BROwner {
    init(node: BRNode) {}
}

/// `count` characters: a name no one types, as a generated key gone wrong makes.
private func hostile(_ count: Int = 100_000, _ character: Character = "x") -> String {
    String(repeating: character, count: count)
}

/// 1,000 registrations of `BRNode` under short names, and one under a name of 100,000 characters.
private func thousandNamedNodes() -> Container {
    let container = Container()
    for number in 0..<1_000 { container.register(BRNode.self, name: "n\(number)") { _ in BRNode() } }
    container.register(BRNode.self, name: hostile(100_000, "y")) { _ in BRNode() }
    return container
}

@Suite struct BoundedReports {
    @Test func explainingAHugeNameListsTenRegistrationsAndCountsTheRest() {
        let test = TestContainer(base: thousandNamedNodes())

        let explanation = test.explain(BRNode.self, name: hostile())
        let description = explanation.description

        // The lines stay available whole; their rendering is bounded.
        #expect(explanation.nearMisses.count == 1_002)
        #expect(description.count < 10_000, "\(description.count) characters")
        let lines = description.split(separator: "\n")
        #expect(lines.first?.hasPrefix("BRNode (name: \"\(hostile(240))…\(hostile(40))\" (100000 characters)): nothing answers") == true)
        #expect(lines.filter { $0.hasPrefix("  registered: ") }.count == 10)
        #expect(lines.contains("  … and 991 more"))
        #expect(lines.last?.hasPrefix("  fix: register it with") == true)
    }

    @Test func aReportOfAHugeMissingNameAndALongCycleIsBounded() {
        let container = thousandNamedNodes()
        container.register(BROwner.self) { r in try BROwner(node: r.resolve(BRNode.self, name: hostile())) }
        // Twenty registrations of 10,000-character names, each resolving the next, the last the first.
        let names = (0..<20).map { "cycle-\($0)-" + hostile(10_000) }
        for (index, name) in names.enumerated() {
            let next = names[(index + 1) % names.count]
            container.register(Int.self, name: name) { r in try r.resolve(Int.self, name: next) }
        }

        let report = TestContainer(base: container).verifyWiring()
        let description = report.description

        #expect(report.problems.map(\.identifier).sorted() == ["cycle", "missing-dependency"])
        #expect(description.count < 20_000, "\(description.count) characters")
        #expect(description.contains("    … and 991 more"))
        #expect(description.contains(" -> … 15 more … -> "))
        #expect(description.contains("(100000 characters)"))
    }
}
