import Testing
import WiringLeakCases

/// The paths CI walks under LeakSanitizer (`wiring-leaks`), walked here for their outcomes: each
/// case checks the values or the `ResolutionError` identifiers due, so that a case that stopped
/// reaching its path fails here, not only silently in the leak check.
@Suite("Leak cases reach their paths")
struct LeakCaseTests {
    @Test(arguments: LeakCase.all.map(\.name))
    func aLeakCaseEndsAsDue(_ name: String) async throws {
        let leakCase = try #require(LeakCase.named(name))
        try await leakCase.run()
    }

    @Test func everyCaseHasADistinctName() {
        let names = LeakCase.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
    }
}
