import Testing
import WiringStress

/// The README's "made once" under stress: every shape, with a fast and a slow factory, for
/// `WIRING_STRESS` rounds (10 by default in the suite; CI also runs `wiring-stress` for 100 in
/// debug and in release). A round that makes a second instance fails, naming the shape.
@Suite("Exactly once under stress")
struct StressTests {
    @Test(arguments: StressShape.all.map(\.label))
    func aKeptInstanceIsMadeOnce(_ label: String) async throws {
        let shape = try #require(StressShape.all.first { $0.label == label })
        let rounds = StressShape.requestedRounds(default: 10)
        let result = try await shape.run(rounds: rounds, until: .now + .seconds(60))
        #expect(result.failedRounds == 0, "\(result)")
    }
}
