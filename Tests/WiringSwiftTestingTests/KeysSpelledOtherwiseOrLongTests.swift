import Foundation
import Testing
import WiringSwiftTesting

@Suite struct KeysSpelledOtherwiseOrLongTests {
    /// `"café"` composed and decomposed is one key: registering the second spelling replaces
    /// the first, whichever spelling a resolve then uses.
    ///
    /// Before the fix (hunt 15; 3 runs of 3, older than this session): the registry's table by
    /// name bytes kept the replaced entry under the first spelling, and a resolve by it found it.
    @Test func theSecondRegistrationOfAKeySpelledOtherwiseReplacesTheFirst() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(ServiceKey(String.self, name: composed) == ServiceKey(String.self, name: decomposed))
        let app = Container()
        app.register(String.self, name: composed) { _ in "first" }
        app.register(String.self, name: decomposed) { _ in "second" }
        #expect(try app.resolve(String.self, name: decomposed) == "second")
        #expect(try app.resolve(String.self, name: composed) == "second")
    }

    /// A name of more than 4,096 bytes is hashed by all its bytes, as it is compared: names that
    /// share their first 4,096 bytes (a long common path, a counter at the end) hash apart.
    ///
    /// Before the fix (hunt 15): only the length and the first 4,096 bytes were hashed, so such
    /// names shared one hash and registering n of them compared n² / 2 pairs (1,500 names: 422 s
    /// in a debug build, against 0.6 s for names differing early).
    @Test func namesSharingTheirFirst4096BytesHashApart() throws {
        let prefix = String(repeating: "p", count: 4_096)
        let names = (0..<100).map { prefix + String($0) }
        let hashes = Set(names.map { ServiceKey(Int.self, name: $0).hashValue })
        #expect(hashes.count > 95, "\(hashes.count) distinct hashes of 100 names")
        let app = Container()
        for (index, name) in names.enumerated() { app.register(Int.self, name: name) { _ in index } }
        #expect(try app.resolve(Int.self, name: names[42]) == 42)
    }
}
