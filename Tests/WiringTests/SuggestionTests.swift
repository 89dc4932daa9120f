import Testing
import Wiring

// A missing registration's fix names the likely mistake: a name one typo away, or the runtime
// arguments the type is really registered with and a call that matches them.

private protocol SLogger {}
private final class SConsoleLogger: SLogger {}
private final class SGreeter {
    init(name: String = "", formal: Bool = false) {}
}
private final class SFeed {
    init(logger: any SLogger) {}
}
private let setup: StaticString = "App/Setup.swift"

@Suite("Errors suggest the name and the arguments meant")
struct SuggestionTests {
    // MARK: Names

    @Test func aNameOneTypoAwayIsSuggested() throws {
        let container = Container()
        container.register((any SLogger).self, name: "console", file: setup, line: 1) { _ in SConsoleLogger() }
        container.register((any SLogger).self, name: "file", file: setup, line: 2) { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) {
            try container.resolve((any SLogger).self, name: "consle")
        }

        #expect(error.identifier == "not-registered")
        #expect(error.description == """
            error: no registration for SLogger (name: "consle")
              path: SLogger (name: "consle")
              registered for SLogger:
                SLogger (name: "console")  at App/Setup.swift:1
                SLogger (name: "file")     at App/Setup.swift:2
              fix: did you mean "console"? If not, register it with `container.register(SLogger.self, name: "consle") { r in … }`, or ask for one of the keys registered above.
            """)
    }

    @Test func swappedLettersAreOneTypo() throws {
        let container = Container()
        container.register((any SLogger).self, name: "console") { _ in SConsoleLogger() }
        container.register((any SLogger).self, name: "file") { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve((any SLogger).self, name: "fiel") }

        #expect(error.fix.hasPrefix("did you mean \"file\"? If not, register it with"))
    }

    @Test func aTypoInsideAFactoryIsSuggestedToo() throws {
        let container = Container()
        container.register((any SLogger).self, name: "console") { _ in SConsoleLogger() }
        container.register(SFeed.self) { r in try SFeed(logger: r.resolve((any SLogger).self, name: "Console")) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SFeed.self) }

        #expect(error.path == [ServiceKey(SFeed.self), ServiceKey((any SLogger).self, name: "Console")])
        #expect(error.fix.hasPrefix("did you mean \"console\"?"))
    }

    @Test func theSuggestedNameIsEscapedAsASwiftLiteral() throws {
        let container = Container()
        container.register((any SLogger).self, name: #"say "hi""#) { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) {
            try container.resolve((any SLogger).self, name: #"say "ho""#)
        }

        #expect(error.fix.hasPrefix(#"did you mean "say \"hi\""? If not, "#))
    }

    @Test func ofTwoNamesEquallyClose_theFirstAlphabeticallyIsSuggested() throws {
        let container = Container()
        container.register((any SLogger).self, name: "mat") { _ in SConsoleLogger() }
        container.register((any SLogger).self, name: "bat") { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve((any SLogger).self, name: "cat") }

        #expect(error.fix.hasPrefix("did you mean \"bat\"?"))
    }

    @Test func aNameTooFarAwayIsNotSuggested() throws {
        let container = Container()
        container.register((any SLogger).self, name: "console") { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve((any SLogger).self, name: "remote") }

        #expect(!error.fix.contains("did you mean"))
        #expect(error.fix == "register it with `container.register(SLogger.self, name: \"remote\") { r in … }`, or ask for one of the keys registered above.")
    }

    @Test func onlyNamesWithTheSameArgumentTypesAreSuggested() throws {
        let container = Container()
        container.register((any SLogger).self, name: "console") { (_, prefix: String) in SConsoleLogger() }
        container.register((any SLogger).self, name: "file") { _ in SConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve((any SLogger).self, name: "consle") }

        #expect(!error.fix.contains("did you mean"))
    }

    // MARK: Runtime arguments

    @Test func aCallWithoutTheArgumentsTheTypeTakesIsShownOneThatMatches() throws {
        let container = Container()
        container.register(SGreeter.self, file: setup, line: 1) { (_, name: String) in SGreeter(name: name) }
        container.register(SGreeter.self, file: setup, line: 2) { (_, name: String, formal: Bool) in
            SGreeter(name: name, formal: formal)
        }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SGreeter.self) }

        #expect(error.description == """
            error: no registration for SGreeter
              path: SGreeter
              registered for SGreeter:
                SGreeter (arguments: String)        at App/Setup.swift:1
                SGreeter (arguments: String, Bool)  at App/Setup.swift:2
              fix: SGreeter is registered to take the runtime arguments (String) or (String, Bool), and this resolve passes none: resolve it as registered, as in `try container.resolve(SGreeter.self, arguments: <String>)`.
            """)
    }

    @Test func aCallWithOtherArgumentTypesIsShownOneThatMatches() throws {
        let container = Container()
        container.register(SGreeter.self) { (_, name: String) in SGreeter(name: name) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SGreeter.self, arguments: 42) }

        #expect(error.fix == "SGreeter is registered to take the runtime arguments (String), and this resolve passes (Int): resolve it as registered, as in `try container.resolve(SGreeter.self, arguments: <String>)`.")
    }

    @Test func aCallWithArgumentsForATypeThatTakesNoneIsShownTheCallWithout() throws {
        let container = Container()
        container.register(SGreeter.self) { _ in SGreeter() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SGreeter.self, arguments: "Ada") }

        #expect(error.fix == "SGreeter is registered to take no runtime arguments, and this resolve passes (String): resolve it as registered, as in `try container.resolve(SGreeter.self)`.")
    }

    @Test func registrationsWithAndWithoutArgumentsAreBothListed() throws {
        let container = Container()
        container.register(SGreeter.self) { _ in SGreeter() }
        container.register(SGreeter.self) { (_, name: String) in SGreeter(name: name) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SGreeter.self, arguments: 7) }

        #expect(error.fix == "SGreeter is registered to take no runtime arguments or the runtime arguments (String), and this resolve passes (Int): resolve it as registered, as in `try container.resolve(SGreeter.self)`.")
    }

    @Test func theMatchingCallKeepsTheName() throws {
        let container = Container()
        container.register(SGreeter.self) { _ in SGreeter() }
        container.register(SGreeter.self, name: "formal") { (_, name: String) in SGreeter(name: name, formal: true) }

        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(SGreeter.self, name: "formal", arguments: 1, 2)
        }

        #expect(error.fix == "SGreeter (name: \"formal\") is registered to take the runtime arguments (String), and this resolve passes (Int, Int): resolve it as registered, as in `try container.resolve(SGreeter.self, name: \"formal\", arguments: <String>)`.")
    }

    @Test func registrationsUnderOtherNamesAreShownWhenNoneHasTheName() throws {
        let container = Container()
        container.register(SGreeter.self, name: "formal") { (_, name: String) in SGreeter(name: name, formal: true) }
        container.register(SGreeter.self) { (_, name: String, formal: Bool) in SGreeter(name: name, formal: formal) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SGreeter.self, name: "formel") }

        #expect(error.fix == "SGreeter is registered to take the runtime arguments (String) or (String, Bool), and this resolve passes none: resolve it as registered, as in `try container.resolve(SGreeter.self, name: \"formal\", arguments: <String>)`.")
    }

    @Test func insideAFactoryTheCallIsOnItsResolver() throws {
        let container = Container()
        container.register(SGreeter.self) { (_, name: String) in SGreeter(name: name) }
        container.register(SFeed.self) { r in
            _ = try r.resolve(SGreeter.self)
            return SFeed(logger: SConsoleLogger())
        }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(SFeed.self) }

        #expect(error.fix.hasSuffix("as in `try r.resolve(SGreeter.self, arguments: <String>)`."))
    }

    @Test func aProviderStillSaysToPassTheArgumentsWhenCalled() throws {
        let container = Container()
        container.register(SGreeter.self) { (_, name: String) in SGreeter(name: name) }

        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(Provider<SGreeter>.self, arguments: "Ada")
        }

        #expect(error.fix.hasPrefix("a `Provider` takes runtime arguments when it is called, not when it is resolved"))
    }

    // MARK: Edit distance

    @Test func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        #expect(RegistrationSuggestion.editDistance("consle", "console") == 1)
        #expect(RegistrationSuggestion.editDistance("fiel", "file") == 1)
        #expect(RegistrationSuggestion.editDistance("replica", "replcia") == 1)
        #expect(RegistrationSuggestion.editDistance("kitten", "sitting") == 3)
        #expect(RegistrationSuggestion.editDistance("", "abc") == 3)
        #expect(RegistrationSuggestion.editDistance("same", "same") == 0)
    }

    @Test func shortNamesAllowOneEditLongerOnesTwo() {
        #expect(RegistrationSuggestion.maximumDistance(for: "db") == 1)
        #expect(RegistrationSuggestion.maximumDistance(for: "file") == 1)
        #expect(RegistrationSuggestion.maximumDistance(for: "consle") == 2)
        #expect(RegistrationSuggestion.closestName(to: "primray", among: ["primary", "replica"]) == "primary")
        #expect(RegistrationSuggestion.closestName(to: "a", among: ["b"]) == nil)
        #expect(RegistrationSuggestion.closestName(to: "file", among: ["fold"]) == nil)
    }
}
