import Foundation

extension StressShape {
    /// Runs every shape for `rounds` rounds each, sharing out `seconds` among them as a bound
    /// (a shape that runs out of its share stops early and says how many rounds it ran).
    public static func runAll(
        rounds: Int, seconds: Double, report: @Sendable (StressResult) -> Void = { _ in }
    ) async throws -> [StressResult] {
        let shapes = all
        let share = Duration.milliseconds(Int(seconds * 1_000) / shapes.count)
        var results: [StressResult] = []
        for shape in shapes {
            let result = try await shape.run(rounds: rounds, until: .now + share)
            report(result)
            results.append(result)
        }
        return results
    }
}
