import Foundation
import Testing
import Wiring
import WiringTestSupport

// A test container over `c`, with no layer pushed and nothing overridden, shares exactly as a
// fresh `c` would, for every resolve, reset and release. Compared over generated graphs: a
// parent and a child container, registrations of every scope (a custom one included), some
// taking a runtime argument, dependencies on earlier registrations, and random resolves, resets
// and releases. Seeded and replayable: `WIRING_PARITY_GRAPHS=5000 WIRING_PARITY_SEED=7 swift
// test --filter BaseParity` runs more; a failure names the seed and graph to replay.

extension Scope {
    fileprivate static let paritySession = Scope("parity-session")
}

/// A service of a generated graph: which registration made it, and what it was made with.
private final class ParityNode: @unchecked Sendable {
    let key: Int
    let dependencies: [ParityNode]

    init(key: Int, dependencies: [ParityNode]) {
        self.key = key
        self.dependencies = dependencies
    }
}

/// A generator of numbers that replays from its seed (SplitMix64).
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One generated app: its registrations, and what a test does with it.
private struct ParityGraph: CustomStringConvertible {
    struct Registration {
        let key: Int
        let scope: Scope
        let inParent: Bool
        let takesArgument: Bool
        let dependencies: [Int]
    }

    enum Step {
        case resolve(Int, argument: Int)
        case reset(Scope)
        case releaseHeld
    }

    let registrations: [Registration]
    let steps: [Step]

    static let scopes: [Scope] = [.transient, .graph, .container, .weak, .paritySession]

    init(using random: inout SeededGenerator) {
        let count = Int.random(in: 1...8, using: &random)
        registrations = (0..<count).map { key in
            let dependencies = key == 0 ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in
                Int.random(in: 0..<key, using: &random)
            }
            return Registration(
                key: key, scope: Self.scopes.randomElement(using: &random)!, inParent: Bool.random(using: &random),
                takesArgument: key > 0 && Int.random(in: 0..<4, using: &random) == 0, dependencies: dependencies)
        }
        let registrations = self.registrations
        steps = (0..<Int.random(in: 4...16, using: &random)).map { _ in
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<7: .resolve(Int.random(in: 0..<registrations.count, using: &random), argument: Int.random(in: 0...1, using: &random))
            case 7, 8: .reset(Self.scopes.randomElement(using: &random)!)
            default: .releaseHeld
            }
        }
    }

    /// A fresh parent and child holding these registrations; the child is `c`.
    func makeContainers() -> (parent: Container, child: Container) {
        let parent = Container()
        let child = Container(parent: parent)
        for registration in registrations {
            let container = registration.inParent ? parent : child
            let key = registration.key
            let dependencies = registrations.filter { !$0.takesArgument }.map(\.key)
            let needs = registration.dependencies.filter { dependencies.contains($0) }
            let make: @Sendable (any Resolver) throws -> ParityNode = { r in
                ParityNode(key: key, dependencies: try needs.map { try r.resolve(ParityNode.self, name: "k\($0)") })
            }
            if registration.takesArgument {
                container.register(ParityNode.self, name: "k\(key)") { (r, _: Int) in try make(r) }.scope(registration.scope)
            } else {
                container.register(ParityNode.self, name: "k\(key)") { r in try make(r) }.scope(registration.scope)
            }
        }
        return (parent, child)
    }

    var description: String {
        let lines = registrations.map { r in
            "k\(r.key) \(r.scope) in \(r.inParent ? "parent" : "child")\(r.takesArgument ? " (argument: Int)" : "") needs \(r.dependencies)"
        }
        return (lines + steps.map { "\($0)" }).joined(separator: "\n")
    }
}

/// Numbers objects in the order first seen, by identity while they live: what the two runs
/// must agree on.
private struct IdentityNumbers {
    private var numbers: [ObjectIdentifier: (object: Weak, number: Int)] = [:]
    private var next = 1

    private final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    /// The number of `object`, and of everything it was made with, depth first.
    mutating func numbers(of node: ParityNode) -> [Int] {
        [number(of: node)] + node.dependencies.flatMap { numbers(of: $0) }
    }

    private mutating func number(of object: AnyObject) -> Int {
        let identifier = ObjectIdentifier(object)
        // An entry whose object died belongs to another object that had the same address.
        if let known = numbers[identifier], known.object.object === object { return known.number }
        defer { next += 1 }
        numbers[identifier] = (Weak(object), next)
        return next
    }
}

/// What a run of `graph`'s steps saw, through `resolve` and `reset`: each resolve's numbers, or
/// its error's identifier.
private func run(
    _ graph: ParityGraph, resolve: (String, Int, Bool) throws -> ParityNode, reset: (Scope) -> Void
) -> [String] {
    var numbers = IdentityNumbers()
    var held: [ParityNode] = []
    var seen: [String] = []
    for step in graph.steps {
        switch step {
        case .resolve(let key, let argument):
            let takesArgument = graph.registrations[key].takesArgument
            do {
                let node = try resolve("k\(key)", argument, takesArgument)
                held.append(node)
                seen.append("k\(key): \(numbers.numbers(of: node))")
            } catch let error as ResolutionError {
                seen.append("k\(key): \(error.identifier)")
            } catch {
                seen.append("k\(key): \(error)")
            }
        case .reset(let scope):
            reset(scope)
            seen.append("reset \(scope)")
        case .releaseHeld:
            held = []
            seen.append("release")
        }
    }
    withExtendedLifetime(held) {}
    return seen
}

@Suite struct BaseParityTests {
    private static let graphs = Int(ProcessInfo.processInfo.environment["WIRING_PARITY_GRAPHS"] ?? "") ?? 300
    private static let seed = UInt64(ProcessInfo.processInfo.environment["WIRING_PARITY_SEED"] ?? "") ?? 2026

    @Test(.timeLimit(.minutes(4)))
    func aTestContainerOverAContainerSharesExactlyAsAFreshOneWould() {
        var random = SeededGenerator(state: Self.seed)
        var mismatches = 0
        for index in 0..<Self.graphs {
            let graph = ParityGraph(using: &random)
            let app = graph.makeContainers()
            let expected = run(
                graph,
                resolve: { name, argument, takesArgument in
                    takesArgument
                        ? try app.child.resolve(ParityNode.self, name: name, arguments: argument)
                        : try app.child.resolve(ParityNode.self, name: name)
                },
                reset: { app.child.resetScope($0) })
            let wrapped = graph.makeContainers()
            let test = TestContainer(base: wrapped.child)
            let actual = run(
                graph,
                resolve: { name, argument, takesArgument in
                    takesArgument
                        ? try test.resolve(ParityNode.self, name: name, arguments: argument)
                        : try test.resolve(ParityNode.self, name: name)
                },
                reset: { test.resetScope($0) })
            if actual != expected {
                mismatches += 1
                Issue.record("""
                    graph \(index) of seed \(Self.seed) (replay: WIRING_PARITY_SEED=\(Self.seed) WIRING_PARITY_GRAPHS=\(index + 1)):
                    \(graph)
                    the app's container saw:
                    \(expected.joined(separator: "\n"))
                    the test container saw:
                    \(actual.joined(separator: "\n"))
                    """)
                if mismatches >= 3 { return }
            }
        }
    }
}
