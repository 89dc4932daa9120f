import Foundation
import Wiring
import WiringTestSupport
import WiringTestHelpers

/// One way of asking for a kept instance from many threads or tasks at once, which the README
/// promises is made once. A round builds a fresh container, races its resolves, and says how
/// many instances were made where one was due.
public struct StressShape: Sendable {
    /// How fast the factory of the kept instance returns: a fast one makes the race between a
    /// first look in the store and a claim short; a slow one makes others wait.
    public typealias Speed = FactorySpeed

    public let name: String
    public let speed: Speed
    /// Runs one round and returns how many instances were made beyond the one due (0 when the
    /// promise held), with a description of what went wrong.
    let round: @Sendable (Speed) async throws -> Excess

    /// What a round found beyond the promise.
    public struct Excess: Sendable {
        public let extra: Int
        public let detail: String

        static let none = Excess(extra: 0, detail: "")
    }

    public var label: String { "\(name), \(speed.rawValue) factory" }

    /// Runs one round.
    public func runRound() async throws -> Excess {
        try await round(speed)
    }
}

/// What a run of every shape found.
public struct StressResult: Sendable, CustomStringConvertible {
    public let label: String
    public let rounds: Int
    /// Rounds in which a second instance was made.
    public let failedRounds: Int
    public let firstDetail: String?
    public let seconds: Double

    public var description: String {
        let verdict = failedRounds == 0 ? "ok" : "FAILED in \(failedRounds) of \(rounds) rounds: \(firstDetail ?? "")"
        return "\(label): \(rounds) rounds, \(String(format: "%.2f", seconds)) s, \(verdict)"
    }
}

extension StressShape {
    /// How many rounds the environment asks for (`WIRING_STRESS=N`), else `defaultRounds`.
    public static func requestedRounds(default defaultRounds: Int) -> Int {
        ProcessInfo.processInfo.environment["WIRING_STRESS"].flatMap(Int.init).map { max($0, 1) } ?? defaultRounds
    }

    /// Runs `rounds` rounds of this shape, stopping early once `deadline` has passed (so that a
    /// slow machine cannot stretch CI without bound; the result says how many rounds ran).
    public func run(rounds: Int, until deadline: ContinuousClock.Instant) async throws -> StressResult {
        let start = ContinuousClock.now
        var failed = 0
        var ran = 0
        var firstDetail: String?
        while ran < rounds, ran == 0 || ContinuousClock.now < deadline {
            let excess = try await runRound()
            ran += 1
            if excess.extra > 0 {
                failed += 1
                if firstDetail == nil { firstDetail = excess.detail }
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return StressResult(label: label, rounds: ran, failedRounds: failed, firstDetail: firstDetail, seconds: seconds)
    }
}
