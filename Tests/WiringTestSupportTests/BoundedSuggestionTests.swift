import Testing
import Wiring
import WiringTestSupport

// The diagnostics of the test support suggest names through the same bounded edit distance as a
// resolve's error: a huge name beside many long ones gets its explanation and report at once.

private final class BSCat {}
private final class BSOwner {
    init(cat: BSCat) {}
}

/// 1,000 registrations of 200-character names, distinct only near their start.
private func containerWithLongNames() -> (container: Container, names: [String]) {
    let container = Container()
    let names = (0..<1_000).map { number in
        let prefix = "cat-\(number)-"
        return prefix + String(String(repeating: "abcdefghij", count: 20).prefix(200 - prefix.count))
    }
    for name in names { container.register(BSCat.self, name: name) { _ in BSCat() } }
    return (container, names)
}

/// A 100,000-character name that starts as `name` does: nothing but its length tells them apart.
private func huge(near name: String) -> String {
    name + String(repeating: "x", count: 100_000 - name.count)
}

// Generous bounds: each takes milliseconds; before the bound, the error of such a resolve took
// over ten minutes to describe.
@Suite struct BoundedSuggestions {
    @Test func explainingAHugeNameListsTheNearMissesQuickly() {
        let (container, names) = containerWithLongNames()
        let test = TestContainer(base: container)

        let clock = ContinuousClock()
        let start = clock.now
        let explanation = test.explain(BSCat.self, name: huge(near: names[500]))
        let description = explanation.description
        let elapsed = clock.now - start

        #expect(explanation.answer == nil)
        #expect(explanation.nearMisses.count == 1_001)
        #expect(description.hasPrefix("BSCat (name: \"\(names[500])x"))
        #expect(explanation.nearMisses.last?.hasPrefix("fix: register it with") == true)
        #expect(elapsed < .seconds(120))   // generous: sanitizers and parallel tests slow it many times
    }

    @Test func explainingALongNameWithATypoStillSuggestsIt() {
        let (container, names) = containerWithLongNames()
        let test = TestContainer(base: container)
        var typo = Array(names[500])
        typo.swapAt(150, 151)

        let explanation = test.explain(BSCat.self, name: String(typo))

        #expect(explanation.nearMisses.last?.hasPrefix("fix: did you mean \(names[500].swiftLiteral)?") == true)
    }

    @Test func aMissingDependencyWithAHugeNameIsReportedQuickly() {
        let (container, names) = containerWithLongNames()
        let asked = huge(near: names[500])
        container.register(BSOwner.self) { r in try BSOwner(cat: r.resolve(BSCat.self, name: asked)) }

        let clock = ContinuousClock()
        let start = clock.now
        let report = TestContainer(base: container).verifyWiring()
        let description = report.description
        let elapsed = clock.now - start

        #expect(report.problems.map(\.identifier) == ["missing-dependency"])
        #expect(report.problems.first?.message.hasPrefix("no registration for BSCat (name: \"\(names[500])x") == true)
        #expect(description.contains("register it with `container.register(BSCat.self, name: \"\(names[500])x"))
        #expect(!description.contains("did you mean"))
        #expect(elapsed < .seconds(120))   // generous: sanitizers and parallel tests slow it many times
    }

    @Test func aSampleWithAHugeNameIsReportedQuickly() {
        let (container, names) = containerWithLongNames()

        let clock = ContinuousClock()
        let start = clock.now
        let report = TestContainer(base: container).verifyWiring { samples in
            samples.add(BSCat.self, name: huge(near: names[500]))
        }
        let description = report.description
        let elapsed = clock.now - start

        #expect(report.problems.map(\.identifier) == ["unused-sample"])
        #expect(report.problems.first?.fix
            == "give the sample the name and argument types of one of the keys registered above, or remove it.")
        #expect(description.contains("unused-sample: a sample was added for BSCat (name: \"\(names[500])x"))
        #expect(elapsed < .seconds(120))   // generous: sanitizers and parallel tests slow it many times
    }

    /// An override of a name nothing registers, one character but 200,001 bytes (a letter and
    /// 100,000 accents), beside 1,000 registrations of its type: its warning, noted as the
    /// override is made, told the name apart from each registered one by normalizing all its
    /// accents again, and took 9 s in a debug build; listing the warnings then compared it with
    /// registered keys in a set by canonical equivalence (2.3 s).
    @Test func anOverrideOfAOneCharacterNameOfHugeBytesIsWarnedAboutQuickly() throws {
        let container = Container()
        for number in 0..<1_000 { container.register(BSCat.self, name: "cat-\(number)") { _ in BSCat() } }
        let test = TestContainer(base: container)
        test.wiringFindings(.allow("override-of-unregistered"))
        let accented = "e" + String(repeating: "\u{301}", count: 100_000)

        let clock = ContinuousClock()
        let start = clock.now
        test.override(BSCat.self, name: accented) { _ in BSCat() }
        // The warnings look the layer's overrides up among the base's registrations, by key.
        let warnings = test.warnings
        let elapsed = clock.now - start

        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.identifier == "override-of-unregistered")
        let accents = { String(repeating: "\u{301}", count: $0) }
        #expect(warning.message.hasPrefix(
            "the override of BSCat (name: \"e\(accents(239))…\(accents(40))\" (200001 bytes)) at "))
        #expect(!warning.message.contains("did you mean"))
        #expect(warning.message.utf8.count < 10_000, "\(warning.message.utf8.count) bytes")
        #expect(elapsed < .seconds(120))   // generous: sanitizers and parallel tests slow it many times
    }
}
