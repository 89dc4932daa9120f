import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import XCTest

// Cases that crashed, hung or overflowed the stack before the engine was made safe. Each runs in
// a child process, so that a regression fails its own test instead of killing the suite.

private final class Node: @unchecked Sendable {
    var next: Node?
    init(next: Node? = nil) { self.next = next }
}

private final class Slow: @unchecked Sendable {
    init() { usleep(20_000) }
}

/// The crash-prone cases, by name; each returns what the parent test checks.
private let hostileCases: [String: @Sendable () throws -> String] = [
    "provider-cycle": {
        let container = Container()
        container.register(Node.self) { r in try Node(next: r.resolve(Provider<Node>.self)()) }
        return try describe { try container.resolve(Node.self) }
    },
    "lazy-cycle": {
        let container = Container()
        container.register(Node.self) { r in try Node(next: r.resolve(Lazy<Node>.self).value) }
        return try describe { try container.resolve(Node.self) }
    },
    "captured-container-cycle": {
        let container = Container()
        container.register(Node.self) { _ in try Node(next: container.resolve(Node.self)) }
        return try describe { try container.resolve(Node.self) }
    },
    "child-container-cycle": {
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(Node.self) { _ in try Node(next: child.resolve(Node.self)) }
        return try describe { try parent.resolve(Node.self) }
    },
    // Each factory resolves from the other container: every call is a resolution of its own,
    // which must continue the path of the one running below it for the cycle to show.
    "cycle-between-two-containers": {
        let first = Container()
        let second = Container()
        first.register(Node.self) { [weak second] _ in try Node(next: second!.resolve(Node.self)) }
        second.register(Node.self) { [weak first] _ in try Node(next: first!.resolve(Node.self)) }
        return try withExtendedLifetime(second) { try describe { try first.resolve(Node.self) } }
    },
    "async-captured-container-cycle": {
        let container = Container()
        container.registerAsync(Node.self) { _ in try await Node(next: container.async.resolve(Node.self)) }
        return blockingAwait {
            do {
                _ = try await container.async.resolve(Node.self)
                return "no error"
            } catch let error as ResolutionError {
                return "\(error.identifier)\n\(error)"
            } catch {
                return "\(error)"
            }
        }
    },
    "deep-chain-on-a-small-stack": {
        let container = Container()
        container.register(Int.self, name: "0") { _ in 0 }
        for depth in 1...999 {
            container.register(Int.self, name: "\(depth)") { r in try r.resolve(Int.self, name: "\(depth - 1)") + 1 }
        }
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<String>()
        // The stack of a secondary thread on Apple platforms.
        let thread = Thread {
            result.value = (try? describe { try container.resolve(Int.self, name: "999") }) ?? "no result"
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        return result.value!
    },
    "deep-chain": {
        let container = Container()
        container.register(Int.self, name: "0") { _ in 0 }
        for depth in 1...5_000 {
            container.register(Int.self, name: "\(depth)") { r in try r.resolve(Int.self, name: "\(depth - 1)") + 1 }
        }
        return try describe { try container.resolve(Int.self, name: "5000") }
    },
    "async-cycle-from-two-tasks": {
        final class A: @unchecked Sendable {}
        final class B: @unchecked Sendable {}
        let container = Container()
        container.registerAsync(A.self) { r in
            try await Task.sleep(nanoseconds: 20_000_000)
            _ = try await r.resolve(B.self)
            return A()
        }.scope(.container)
        container.registerAsync(B.self) { r in
            try await Task.sleep(nanoseconds: 20_000_000)
            _ = try await r.resolve(A.self)
            return B()
        }.scope(.container)
        let results = blockingAwait {
            async let first = outcome { try await container.async.resolve(A.self) }
            async let second = outcome { try await container.async.resolve(B.self) }
            return await [first, second]
        }
        return results.joined(separator: "\n")
    },
    "singleton-waits-for-another-thread": {
        let container = Container()
        container.register(Slow.self) { _ in Slow() }.scope(.container)
        container.register(Node.self) { _ in
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = try? container.resolve(Slow.self)
                done.signal()
            }.start()
            done.wait()
            return Node()
        }.scope(.container)
        _ = try container.resolve(Node.self)
        return "completed"
    },
    "main-actor-singleton-claimed-by-an-async-resolve": {
        // XCTest runs the case on the main thread. A task asks for a main-actor singleton with
        // `await` while the main actor is busy, then the main actor asks for it synchronously:
        // had the task claimed it before hopping to the main actor, each would wait for the other.
        let made = LockedCounter()
        let container = Container()
        container.registerMainActor(Node.self) { _ in
            made.increment()
            return Node()
        }.scope(.container)
        let asking = DispatchSemaphore(value: 0)
        Task.detached {
            asking.signal()
            _ = try? await container.async.resolve(Node.self)
        }
        asking.wait()
        usleep(50_000)
        let node = try MainActor.assumeIsolated { try container.resolve(Node.self) }
        let again = try MainActor.assumeIsolated { try container.resolve(Node.self) }
        return "made \(made.value), same \(node === again)"
    },
    "locks-taken-out-of-order": {
        // Two locks of one concern each, the second taken while the first is held.
        let outer = LockedState(0)
        let inner = LockedState(0)
        outer.withLock { _ in inner.withLock { $0 += 1 } }
        return "no check"
    },
    "locks-taken-in-order": {
        let stack = LockedState(0, rank: .container)
        let leaf = LockedState(0)
        stack.withLock { _ in leaf.withLock { $0 += 1 } }
        return "in order"
    },
]

/// The entry a child process runs: the case named in its environment, then exit.
final class HostileChildEntry: XCTestCase {
    func testChildCase() throws {
        guard ChildProcess.requestedCase != nil else { throw XCTSkip("runs only in a child process") }
        ChildProcess.runRequestedCase(from: hostileCases)
    }
}

private func describe<Result>(_ body: () throws -> Result) throws -> String {
    do {
        _ = try body()
        return "no error"
    } catch let error as ResolutionError {
        return "\(error.identifier)\n\(error)"
    }
}

private func outcome<Result>(_ body: () async throws -> Result) async -> String {
    do {
        _ = try await body()
        return "no error"
    } catch let error as ResolutionError {
        return error.identifier
    } catch {
        return "\(error)"
    }
}

/// Waits on this thread for async work, which the cooperative pool runs.
private func blockingAwait<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result>()
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}

@Suite("Hostile use: crashes, hangs and overflows become errors", .enabled(if: ChildProcess.isSupported))
struct HostileUseTests {
    private func run(_ name: String) throws -> ChildProcess.Outcome {
        try ChildProcess.run(name, entry: "WiringTests.HostileChildEntry/testChildCase", timeout: 60)
    }

    @Test(arguments: [
        "provider-cycle", "lazy-cycle", "captured-container-cycle", "child-container-cycle", "cycle-between-two-containers",
        "async-captured-container-cycle",
    ])
    func aCycleThroughANewTopLevelCallIsAnError(name: String) throws {
        let outcome = try run(name)
        #expect(outcome.succeeded, "\(outcome)")
        let result = try #require(outcome.result, "\(outcome)")
        #expect(result.hasPrefix("circular-dependency\nerror: circular dependency while resolving Node"), "\(result)")
        #expect(result.contains("cycle: Node -> Node"), "\(result)")
    }

    @Test func aChainDeeperThanTheLimitIsAnErrorNamingItsHeadAndTail() throws {
        let outcome = try run("deep-chain")
        #expect(outcome.succeeded, "\(outcome)")
        let result = try #require(outcome.result, "\(outcome)")
        // 1,000 levels, or fewer where the thread's stack (8 MB here) fills first in a debug build.
        let depth = try #require(result.firstMatch(of: /went deeper than (\d+) registrations/).flatMap { Int($0.1) }, "\(result)")
        #expect(depth <= 1_000 && depth > 500, "\(result)")
        let tail = 5_000 - depth
        #expect(result.hasPrefix("resolution-too-deep\nerror: resolving Int (name: \"\(tail)\") went deeper than"), "\(result)")
        #expect(
            result.contains(
                "path: Int (name: \"5000\") -> Int (name: \"4999\") -> Int (name: \"4998\") -> … \(depth - 5) more … -> Int (name: \"\(tail + 2)\") -> Int (name: \"\(tail + 1)\") -> Int (name: \"\(tail)\")"),
            "\(result)")
    }

    @Test func aDeepChainOnAThreadWithASmallStackIsAnErrorNotACrash() throws {
        let outcome = try run("deep-chain-on-a-small-stack")
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result?.hasPrefix("resolution-too-deep\n") == true, "\(outcome)")
    }

    @Test func anAsyncSingletonCycleEnteredFromTwoTasksIsAnErrorInEach() throws {
        let outcome = try run("async-cycle-from-two-tasks")
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "circular-dependency\ncircular-dependency", "\(outcome)")
    }

    /// Debug builds check the one order of `LockRank` on every lock taken (a release build,
    /// which the suite does not run, skips the check).
    @Test func aLockTakenOutOfOrderStopsADebugBuildNamingBothLocks() throws {
        let broken = try run("locks-taken-out-of-order")
        #if DEBUG
        #expect(!broken.succeeded, "\(broken)")
        #expect(broken.output.contains("lock order: the lock made at WiringTests/HostileUseTests.swift:"), "\(broken)")
        #expect(broken.output.contains("(leaf) was taken while holding the one made at WiringTests/HostileUseTests.swift:"), "\(broken)")
        #else
        #expect(broken.result == "no check", "\(broken)")
        #endif
        let ordered = try run("locks-taken-in-order")
        #expect(ordered.succeeded, "\(ordered)")
        #expect(ordered.result == "in order", "\(ordered)")
    }

    @Test func aMainActorSingletonAskedForWithAwaitWhileTheMainActorAsksForItToo() throws {
        let outcome = try run("main-actor-singleton-claimed-by-an-async-resolve")
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "made 1, same true", "\(outcome)")
    }

    /// Main-actor singletons whose hooks resolve each other, asked for with `await` from 8
    /// tasks: in a child process, since a regression blocks the main actor for good.
    @Test func mainActorSingletonsWhoseHooksResolveEachOtherAskedForFromEightTasks() throws {
        let outcome = try ChildProcess.run(
            "main-actor-hooked-singletons",
            arguments: ["--testing-library", "swift-testing", "--filter", "MainActorHookedSingletonsChildSuite"],
            timeout: 120)
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.output.contains("eachFactoryRunsOnce(speed:)"), "\(outcome)")
    }

    @Test func aSingletonFactoryThatWaitsForAnotherThreadMakingAnotherSingletonCompletes() throws {
        let outcome = try run("singleton-waits-for-another-thread")
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "completed", "\(outcome)")
    }
}

/// Run only by ``HostileUseTests/mainActorSingletonsWhoseHooksResolveEachOtherAskedForFromEightTasks()``,
/// in a child process.
@Suite(.enabled(if: ChildProcess.requestedCase == "main-actor-hooked-singletons"))
struct MainActorHookedSingletonsChildSuite {
    final class First: @unchecked Sendable {
        var second: Second?
    }

    final class Second: @unchecked Sendable {
        var first: First?
    }

    @Test(arguments: FactorySpeed.allCases)
    func eachFactoryRunsOnce(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let firstsMade = LockedCounter()
            let secondsMade = LockedCounter()
            let container = Container()
            container.registerMainActor(First.self) { _ in
                firstsMade.increment()
                speed.work()
                return First()
            }.scope(.container).initCompleted { r, first in
                first.second = try r.resolve(Second.self)
            }
            container.registerMainActor(Second.self) { _ in
                secondsMade.increment()
                speed.work()
                return Second()
            }.scope(.container).initCompleted { r, second in
                second.first = try r.resolve(First.self)
            }
            let failures = LockedCounter()
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        do {
                            if task.isMultiple(of: 2) {
                                _ = try await container.async.resolve(First.self)
                            } else {
                                _ = try await container.async.resolve(Second.self)
                            }
                        } catch {
                            failures.increment()
                        }
                    }
                }
            }
            #expect(failures.value == 0, "round \(round)")
            #expect(firstsMade.value == 1 && secondsMade.value == 1, "round \(round): \(firstsMade.value), \(secondsMade.value)")
            let first = try await container.async.resolve(First.self)
            #expect(first.second?.first === first, "round \(round): the two refer to each other")
        }
    }
}
