import Foundation
import WiringStress

// wiring-stress: races every kept-instance shape the README promises is made once, for
// WIRING_STRESS rounds (default 100) each, with a fast and a slow factory, within
// WIRING_STRESS_SECONDS (default 300) in all. Exits 1 if any round made a second instance.
//
//     WIRING_STRESS=100 swift run wiring-stress               # debug, as test suites build
//     WIRING_STRESS=100 swift run -c release wiring-stress

let rounds = StressShape.requestedRounds(default: 100)
let seconds = ProcessInfo.processInfo.environment["WIRING_STRESS_SECONDS"].flatMap(Double.init) ?? 300
#if DEBUG
let configuration = "debug"
#else
let configuration = "release"
#endif
print("wiring-stress: \(rounds) rounds per shape, \(configuration) build, at most \(Int(seconds)) s")
let results = try await StressShape.runAll(rounds: rounds, seconds: seconds) { print($0) }
let failed = results.filter { $0.failedRounds > 0 }
let total = results.reduce(0) { $0 + $1.failedRounds }
print("rounds with a second instance: \(total)")
exit(failed.isEmpty ? 0 : 1)
