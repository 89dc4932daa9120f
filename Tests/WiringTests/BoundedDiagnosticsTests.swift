import Foundation
import Testing
import Wiring
import WiringTestHelpers

// Every error stays readable and bounded whatever it is given: a long name is shown by its ends
// and its length, a list of registrations by its first few and a count, a path by its ends.
// Lengths are asserted, never times: the bounds hold by construction, as each piece is bounded.

private final class BDNode {}

/// `count` characters: a name no one types, as a generated key gone wrong makes.
private func hostile(_ count: Int = 100_000, _ character: Character = "x") -> String {
    String(repeating: character, count: count)
}

/// A container with 1,000 registrations of `Int` under distinct short names.
private func thousandNamedInts() -> Container {
    let container = Container()
    for number in 0..<1_000 { container.register(Int.self, name: "n\(number)") { _ in number } }
    return container
}

@Suite struct BoundedDiagnosticsTests {
    // MARK: Names and candidates

    @Test func aHugeNameBesideAThousandRegistrationsGivesAShortError() throws {
        let container = thousandNamedInts()

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: hostile()) }
        let description = error.description

        #expect(error.identifier == "not-registered")
        #expect(description.count < 10_000, "\(description.count) characters")
        let shown = "Int (name: \"\(hostile(240))…\(hostile(40))\" (100000 characters))"
        #expect(description.hasPrefix("error: no registration for \(shown)\n  path: \(shown)\n  registered for Int:\n"))
        let candidates = description.split(separator: "\n").filter { $0.hasPrefix("    Int (name: ") }
        #expect(candidates.count == 10)
        #expect(description.contains("\n    … and 990 more\n"))
        #expect(error.fix.contains("register it with `container.register(Int.self, name: \"\(hostile(240))…"))
        // The key itself is untouched: only its rendering is shortened.
        #expect(error.key.name?.count == 100_000)
    }

    /// One character can join any number of Unicode scalars: a letter and 100,000 accents is one
    /// character, and 200,001 bytes of UTF-8. Before the fix it was shown whole, beside every
    /// line that names the key; it is now shortened by its scalars, with its length in bytes.
    /// So are the ends of a long name whose characters are that long.
    @Test func aNameOfFewCharactersButHugeOnesGivesAShortError() throws {
        let container = Container()
        for number in 0..<10 { container.register(Int.self, name: "n\(number)") { _ in number } }
        let accented = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(accented.count == 1)

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: accented) }

        #expect(error.description.utf8.count < 20_000, "\(error.description.utf8.count) bytes")
        #expect(error.description.contains("…" + String(repeating: "\u{301}", count: 40) + "\" (200001 bytes)"))

        let manyAccented = String(repeating: "e" + String(repeating: "\u{301}", count: 1_000), count: 400)
        let key = ServiceKey(Int.self, name: manyAccented).description
        #expect(key.utf8.count < 10_000, "\(key.utf8.count) bytes")
        #expect(key.hasSuffix("\" (400 characters))"))
    }

    /// The same name asked for beside a thousand registrations of its type. Telling it apart
    /// from each registered name normalized its 100,000 accents again, for the near misses and
    /// again for the suggestion: the error took 22 s to build and describe in a debug build. A
    /// name of more than `BoundedText.maximumNameBytes` bytes is told apart by its bytes.
    @Test func aNameOfOneHugeCharacterBesideAThousandRegistrationsGivesItsErrorAtOnce() throws {
        let container = thousandNamedInts()
        let accented = "e" + String(repeating: "\u{301}", count: 100_000)
        let built = LockedBox<(error: ResolutionError, description: String, fix: String)?>(nil)

        // On a thread of its own, with a time limit: a diagnostic that costs the name's length
        // for every registration fails the test instead of holding up the suite. Generous: it
        // takes milliseconds alone, and sanitizers and parallel tests slow it many times.
        let finished = raceThreads(1, timeout: .seconds(120)) { _ in
            do {
                _ = try container.resolve(Int.self, name: accented)
            } catch let error as ResolutionError {
                built.set((error, error.description, error.fix))
            } catch {}
        }
        try #require(finished, "the error of a resolve of a one-character name of 200,001 bytes took over 120 s")
        let (error, description, fix) = try #require(built.get())

        #expect(error.identifier == "not-registered")
        #expect(description.utf8.count < 20_000, "\(description.utf8.count) bytes")
        let accents = { String(repeating: "\u{301}", count: $0) }
        let shown = "Int (name: \"e\(accents(239))…\(accents(40))\" (200001 bytes))"
        #expect(description.hasPrefix("error: no registration for \(shown)\n  path: \(shown)\n  registered for Int:\n"))
        #expect(description.split(separator: "\n").filter { $0.hasPrefix("    Int (name: ") }.count == 10)
        #expect(description.contains("\n    … and 990 more\n"))
        let literal = "\"e\(accents(239))…\(accents(40))\" (200001 bytes)"
        #expect(fix.hasPrefix("register it with `container.register(Int.self, name: \(literal)) { r in … }`"))
        #expect(!fix.contains("did you mean"))
        #expect(error.key.name == accented)
    }

    @Test func aCycleThroughANameOfOneHugeCharacterDeepInAPathIsFoundAtOnce() async throws {
        // Where the cycle starts is found by comparing its key with each key on the path: 500
        // of its type here, each of which normalized the name's accents again (2.3 s in a debug
        // build). Told apart by bytes, the cycle still starts at the name.
        let accented = "e" + String(repeating: "\u{301}", count: 100_000)
        let container = Container()
        container.register(BDNode.self, name: accented) { r in try r.resolve(BDNode.self, name: accented) }
        container.register(BDNode.self, name: "0") { r in try r.resolve(BDNode.self, name: accented) }
        for depth in 1..<500 {
            container.register(BDNode.self, name: "\(depth)") { r in try r.resolve(BDNode.self, name: "\(depth - 1)") }
        }

        let error = try #require(await onThreadWithLargeStack { try container.resolve(BDNode.self, name: "499") })

        #expect(error.identifier == "circular-dependency")
        let accents = { String(repeating: "\u{301}", count: $0) }
        let key = "BDNode (name: \"e\(accents(239))…\(accents(40))\" (200001 bytes))"
        #expect(error.description.contains("\n  cycle: \(key) -> \(key)\n"))
        #expect(error.description.utf8.count < 20_000, "\(error.description.utf8.count) bytes")
    }

    @Test func aHugeRegisteredNameDoesNotWidenEveryLineOfTheList() throws {
        // One registered name of 100,000 characters set the width every near miss was padded
        // to: the description of this error was 100 million characters long.
        let container = thousandNamedInts()
        container.register(Int.self, name: hostile(100_000, "y")) { _ in 0 }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: hostile()) }

        #expect(error.description.count < 10_000, "\(error.description.count) characters")
        #expect(error.description.contains("\n    … and 991 more\n"))
    }

    @Test func aTypoInAHugeNameIsStillSuggestedShortened() throws {
        let container = thousandNamedInts()
        let registered = "cfg-" + hostile(1_000)
        container.register(Int.self, name: registered) { _ in 0 }
        var typo = Array(registered)
        typo[500] = "z"

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: String(typo)) }

        #expect(error.fix.hasPrefix("did you mean \"cfg-\(hostile(236))…\(hostile(40))\" (1004 characters)? If not, "))
        #expect(error.description.count < 10_000)
    }

    @Test func namesUpToTheLimitAreShownWholeAndEscapedAsBefore() {
        let limit = hostile(300)
        #expect(ServiceKey(Int.self, name: limit).description == "Int (name: \"\(limit)\")")
        #expect(ServiceKey(Int.self, name: "a\"b\\c\nd").description == #"Int (name: "a\"b\\c\nd")"#)

        let over = "\"" + hostile(299) + "\n"
        #expect(ServiceKey(Int.self, name: over).description
            == #"Int (name: "\""# + hostile(239) + "…" + hostile(39) + #"\n" (301 characters))"#)
    }

    @Test func aNameOfManyBytesButFewCharactersIsShownWhole() {
        // Counted in characters, not bytes: 300 flags are 2,400 bytes of UTF-8.
        let flags = String(repeating: "🇫🇷", count: 300)
        #expect(ServiceKey(Int.self, name: flags).description == "Int (name: \"\(flags)\")")
        let more = flags + "🇫🇷"
        #expect(ServiceKey(Int.self, name: more).description.hasSuffix("\" (301 characters))"))
    }

    @Test func aListOfTenIsShownWholeAndElevenCountsTheLast() throws {
        for (count, more) in [(10, nil), (11, "… and 1 more")] {
            let container = Container()
            for number in 0..<count { container.register(Int.self, name: "n\(number)") { _ in number } }
            let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: "other") }
            let lines = error.description.split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("    Int (name: ") }.count == 10)
            #expect(lines.last { $0.hasPrefix("    … ") }.map(String.init) == more.map { "    " + $0 })
        }
    }

    // MARK: Paths and cycles

    @Test func aPathOfEightKeysIsShownWholeAndLongerOnesByTheirEnds() {
        let keys = (0..<1_000).map { ServiceKey(Int.self, name: "\($0)") }
        let whole = ResolutionError(key: keys[7], path: Array(keys[..<8]), reason: .notRegistered(nearMisses: []))
        #expect(whole.description.contains(
            "  path: " + keys[..<8].map(\.description).joined(separator: " -> ") + "\n"))

        let cycle = keys + [keys[0]]
        let error = ResolutionError(key: keys[999], path: cycle, reason: .circularDependency(cycle: cycle))
        let ends = #"Int (name: "0") -> Int (name: "1") -> Int (name: "2") -> … 995 more … -> Int (name: "998") -> Int (name: "999") -> Int (name: "0")"#
        #expect(error.description.contains("  cycle: \(ends)\n  path: \(ends)\n"))
        #expect(error.description.count < 2_000)
    }

    @Test func aResolutionTooDeepOfHugeNamesGivesAShortError() async throws {
        // A chain of registrations, each resolving the next, longer than `Resolution.maximumDepth`
        // (1,000), every name 10,000 characters long: unbounded, its path alone would be 10
        // million characters.
        let names = (0...1_200).map { "\($0)-" + hostile(10_000) }
        let container = Container()
        container.register(BDNode.self, name: names[0]) { _ in BDNode() }
        for depth in 1...1_200 {
            let next = names[depth - 1]
            container.register(BDNode.self, name: names[depth]) { r in try r.resolve(BDNode.self, name: next) }
        }

        let error = try #require(await onThreadWithLargeStack { try container.resolve(BDNode.self, name: names[1_200]) })

        #expect(error.identifier == "resolution-too-deep")
        // 1,000 keys, or fewer where a sanitizer's larger frames fill the stack first.
        #expect(error.path.count > 100, "\(error.path.count) keys")
        #expect(error.description.count < 10_000, "\(error.description.count) characters")
        #expect(error.description.contains(" -> … \(error.path.count - 6) more … -> "))
        #expect(error.description.contains("(10005 characters)"))
    }

    /// Keys compare names of more than 4,096 bytes by their bytes, hashing as they compare: two
    /// spellings of one text that long (composed and decomposed) are two keys, where shorter
    /// ones are one, as Swift's strings are.
    @Test func keysCompareNamesOfManyBytesByTheirBytes() {
        let composed = String(repeating: "\u{E9}", count: 3_000)     // é: 2 bytes each
        let decomposed = String(repeating: "e\u{301}", count: 3_000)  // e and an accent: 3 bytes each
        #expect(composed == decomposed)
        #expect(ServiceKey(Int.self, name: composed) != ServiceKey(Int.self, name: decomposed))
        let shortComposed = String(repeating: "\u{E9}", count: 10)
        let shortDecomposed = String(repeating: "e\u{301}", count: 10)
        #expect(ServiceKey(Int.self, name: shortComposed) == ServiceKey(Int.self, name: shortDecomposed))
        #expect(Set([ServiceKey(Int.self, name: shortComposed), ServiceKey(Int.self, name: shortDecomposed)]).count == 1)
        let copy = String(decoding: Array(decomposed.utf8), as: UTF8.self)
        #expect(Set([ServiceKey(Int.self, name: decomposed), ServiceKey(Int.self, name: copy)]).count == 1)

        let container = Container()
        container.register(Int.self, name: decomposed) { _ in 1 }
        #expect(throws: ResolutionError.self) { try container.resolve(Int.self, name: composed) }
        #expect((try? container.resolve(Int.self, name: decomposed)) == 1)
    }

}

/// Runs `body` on a thread whose stack holds a chain of 1,000 resolutions in a debug build (a
/// test's own thread may be too small), and returns the `ResolutionError` it threw.
private func onThreadWithLargeStack(_ body: @escaping @Sendable () throws -> BDNode) async -> ResolutionError? {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            do {
                _ = try body()
                continuation.resume(returning: nil)
            } catch {
                continuation.resume(returning: error as? ResolutionError)
            }
        }
        thread.stackSize = 64 * 1024 * 1024
        thread.start()
    }
}
