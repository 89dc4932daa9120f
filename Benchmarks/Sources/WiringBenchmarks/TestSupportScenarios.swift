import Foundation
import Wiring
import WiringTestSupport

/// Resolving through a `TestContainer` that records every step, next to the plain container it
/// wraps, in the same run: recording must not change what it measures (goal: at most 2x).
struct RecordingRow {
    let scenario: String
    let container: Double
    let testContainer: Double
}

func recordingScenarios() -> [(name: String, make: () -> WiringContainer, resolve: (any Resolver) throws -> AnyObject)] {
    [
        ("transient chain A(B(C))", makeChain, { try $0.resolve(ChainA.self) }),
        ("10-node graph, graph scope, shared nodes", makeTenNodeGraph, { try $0.resolve(AppRoot.self) }),
    ]
}

/// For each selected recording scenario, a resolve through a new recording `TestContainer`.
func recordingBodies(filter: String?) -> [(name: String, body: Body)] {
    recordingScenarios()
        .filter { scenario in filter.map { scenario.name.localizedCaseInsensitiveContains($0) } ?? true }
        .map { scenario in
            let test = TestContainer(base: scenario.make())
            let resolves = ResolveCount()
            return (scenario.name, {
                // The trace keeps every step; dropping it now and then keeps memory flat.
                resolves.value &+= 1
                if resolves.value % 100 == 0 { test.clearTrace() }
                return try scenario.resolve(test)
            })
        }
}

/// How many resolves a recording body made. Not a captured `var`: that is checked for
/// exclusive access on every resolve, a cost of the harness the plain side does not pay.
final class ResolveCount {
    @exclusivity(unchecked) var value = 0
}

func measureRecording(filter: String?, options: MeasureOptions) throws -> [RecordingRow] {
    try zip(recordingScenarios(), recordingBodies(filter: nil))
        .filter { scenario, _ in filter.map { scenario.name.localizedCaseInsensitiveContains($0) } ?? true }
        .map { scenario, recording in
            let container = scenario.make()
            let bodies: [Body] = [{ try scenario.resolve(container) }, recording.body]
            progress("\(scenario.name), through a recording TestContainer …")
            let measurements = try measure(threads: 1, options: options, bodies)
            return RecordingRow(
                scenario: scenario.name, container: measurements[0].median, testContainer: measurements[1].median)
        }
}

/// `verifyWiring()` on a generated container of `count` registrations, each depending on up to
/// two earlier ones; the median of several runs, in milliseconds.
func measureVerification(count: Int, runs: Int = 9) -> Double {
    let container = WiringContainer()
    for index in 0..<count {
        container.register(Node.self, name: "\(index)") { r in
            let first: Node? = index >= 1 ? try r.resolve(Node.self, name: "\(index - 1)") : nil
            let second: Node? = index >= 2 ? try r.resolve(Node.self, name: "\(index / 2)") : nil
            return Node(children: [first, second].compactMap { $0 })
        }
    }
    let test = TestContainer(base: container)
    var timings: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        let report = test.verifyWiring()
        let elapsed = ContinuousClock.now - start
        sink &+= UInt(report.problems.count)
        timings.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    return timings.sorted()[timings.count / 2]
}

final class Node: Sendable {
    let children: [Node]
    init(children: [Node]) { self.children = children }
}
