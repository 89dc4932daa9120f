import Foundation
import Testing
import Wiring

// The article on errors (Sources/Wiring/Documentation.docc/ErrorsAndDiagnostics.md) quotes the
// fixes a name typo and wrong runtime arguments get; these checks make the library print them,
// so the quotes stay true.

private final class Greeter {
    init(name: String = "", formal: Bool = false) {}
}

@Suite struct ErrorSuggestionQuotes {
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // ReadmeTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/Wiring/Documentation.docc/ErrorsAndDiagnostics.md")

    /// The article, with each line's indentation taken away, so a quote may sit in a list item.
    static func articleText() throws -> String {
        try String(contentsOf: article, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }
            .joined(separator: "\n")
    }

    @Test func theNameTypoFixIsQuoted() throws {
        let container = Container()
        container.register(Logger.self, name: "console") { _ in ConsoleLogger() }
        container.register(Logger.self, name: "file") { _ in ConsoleLogger() }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Logger.self, name: "consle") }
        #expect(try Self.articleText().contains("\nfix: \(error.fix)\n"))
    }

    @Test func theArgumentsFixIsQuoted() throws {
        let container = Container()
        container.register(Greeter.self) { (_, name: String) in Greeter(name: name) }
        container.register(Greeter.self) { (_, name: String, formal: Bool) in Greeter(name: name, formal: formal) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Greeter.self) }
        #expect(try Self.articleText().contains("\nfix: \(error.fix)\n"))
    }
}
