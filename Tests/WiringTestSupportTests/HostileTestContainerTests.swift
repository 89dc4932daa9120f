import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport
import XCTest

private final class Kept: @unchecked Sendable {}

/// Notes that an instance was made and holds it weakly, from any thread.
private final class WeakHolder: @unchecked Sendable {
    private let lock = NSLock()
    private weak var held: Kept?
    private var made = false

    func hold(_ instance: Kept?) {
        lock.withLock {
            held = instance
            made = made || instance != nil
        }
    }

    var object: Kept? { lock.withLock { held } }
    var wasMade: Bool { lock.withLock { made } }
}

private final class KeepsItsProvider: @unchecked Sendable {
    let provider: Provider<Kept>
    init(provider: Provider<Kept>) { self.provider = provider }
}

/// The crash-prone cases, by name; each returns what the parent test checks.
private let hostileCases: [String: @Sendable () throws -> String] = [
    "resolve-all-while-layers-change": {
        let base = Container()
        for index in 0..<8 { base.register(Kept.self, name: "\(index)") { _ in Kept() }.scope(.container) }
        let test = TestContainer(base: base)
        let deadline = Date().addingTimeInterval(1)
        // 12 threads of their own, running at once whatever the core count (`concurrentPerform`
        // runs as many as there are cores).
        let finished = raceThreads(12) { thread in
            while Date() < deadline {
                if thread == 0 {
                    test.pushLayer("x")
                    test.popLayer()
                } else {
                    _ = try? test.resolveAll(Kept.self)
                }
            }
        }
        guard finished else { return "the threads did not finish in time (a deadlock?)" }
        return "\(try test.resolveAll(Kept.self).count)"
    },
    "resolve-all-in-parallel-with-overrides": {
        let base = Container()
        for index in 0..<8 { base.register(Kept.self, name: "\(index)") { _ in Kept() }.scope(.container) }
        let test = TestContainer(base: base)
        let finished = raceThreads(8) { index in
            for _ in 0..<200 {
                test.withOverrides({ $0.override(Kept.self, name: "\(index)") { _ in Kept() } }) {
                    _ = try? test.resolveAll(Kept.self)
                }
            }
        }
        guard finished else { return "the threads did not finish in time (a deadlock?)" }
        return "\(try test.resolveAll(Kept.self).count)"
    },
    "scope-changed-after-caching": {
        let base = Container()
        let registration = base.register(Kept.self) { _ in Kept() }.scope(.container)
        let test = TestContainer(base: base)
        let first = try test.resolve(Kept.self)
        registration.scope(.weak)
        let second = try test.resolve(Kept.self)
        registration.scope(Scope("session"))
        let third = try test.resolve(Kept.self)
        return "\(first !== second) \(second !== third) \(try test.resolve(Kept.self) === third)"
    },
]

/// The entry a child process runs: the case named in its environment, then exit.
final class HostileTestContainerChildEntry: XCTestCase {
    func testChildCase() throws {
        guard ChildProcess.requestedCase != nil else { throw XCTSkip("runs only in a child process") }
        ChildProcess.runRequestedCase(from: hostileCases)
    }
}

@Suite("Hostile use of a test container", .enabled(if: ChildProcess.isSupported))
struct HostileTestContainerTests {
    private func run(_ name: String) throws -> ChildProcess.Outcome {
        try ChildProcess.run(name, entry: "WiringTestSupportTests.HostileTestContainerChildEntry/testChildCase", timeout: 60)
    }

    @Test(arguments: ["resolve-all-while-layers-change", "resolve-all-in-parallel-with-overrides"])
    func resolveAllWhileLayersChangeReadsNothingFreed(name: String) throws {
        let outcome = try run(name)
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "8", "\(outcome)")
    }

    @Test func changingTheScopeOfARegistrationATestContainerCachedMakesItAgain() throws {
        let outcome = try run("scope-changed-after-caching")
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.result == "true true true", "\(outcome)")
    }
}

@Suite("Test container lifetimes")
struct TestContainerLifetimeTests {
    @Test func poppingALayerFreesWhatItMade() throws {
        let base = Container()
        base.register(Kept.self) { _ in Kept() }.scope(.container)
        let test = TestContainer(base: base)
        weak var made: Kept?
        test.pushLayer("x")
        made = try test.resolve(Kept.self)
        #expect(made != nil)
        test.popLayer()
        #expect(made == nil)
    }

    @Test func theEndOfWithOverridesFreesWhatItsLayerMade() throws {
        let base = Container()
        base.register(Kept.self) { _ in Kept() }.scope(.container)
        let test = TestContainer(base: base)
        weak var made: Kept?
        test.withOverrides({ _ in }) {
            made = try? test.resolve(Kept.self)
            #expect(made != nil)
        }
        #expect(made == nil)
    }

    /// A resolve that began inside a layer and publishes its singleton after the layer is gone
    /// (popped, or its `withOverrides` returned) keeps it on the layer's shelf only until the next
    /// layer ends: then the shelf closes, and the instance lives only as long as its caller holds
    /// it. (Kept on for good, nothing would ever find it or let it go before the test container.)
    @Test(arguments: ["popLayer", "withOverrides"])
    func whatAResolveFinishesAfterItsLayerIsGoneIsNotKeptForGood(_ end: String) async throws {
        let (started, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let base = Container()
        base.register(Kept.self) { _ in
            started.signal()
            _ = gate.wait(timeout: .now() + 130)
            return Kept()
        }.scope(.container)
        base.register(Int.self) { _ in 0 }
        let test = TestContainer(base: base)
        let made = WeakHolder()
        if end == "popLayer" {
            test.pushLayer("x")
            let finished = DispatchSemaphore(value: 0)
            // On a thread of its own: the factory blocks it, which a task would take from the pool.
            DispatchQueue.global().async {
                made.hold(try? test.resolve(Kept.self))
                finished.signal()
            }
            #expect(await signalled(started))
            test.popLayer()
            gate.signal()
            #expect(await signalled(finished))
        } else {
            var inside: Task<Void, Never>?
            await test.withOverrides({ _ in }) {
                // A task of its own, which outlives the `withOverrides` that binds its layer.
                inside = Task { made.hold(try? test.resolve(Kept.self)) }
                // Long: the task waits for a thread of the pool, which other tests running in
                // parallel may all hold for seconds under a sanitizer.
                #expect(await signalled(started, within: 120))
            }
            gate.signal()
            await inside?.value
        }
        // Another layer ends, closing the shelf; a resolve after it, so that no snapshot of the
        // old layers is left either.
        test.pushLayer("next")
        test.popLayer()
        _ = try test.resolve(Int.self)
        #expect(made.wasMade)
        #expect(made.object == nil, "the singleton made after its layer was gone is still alive")
    }

    @Test func aSingletonHoldingAProviderDoesNotKeepItsTestContainerAlive() throws {
        let base = Container()
        base.register(Kept.self) { _ in Kept() }
        base.register(KeepsItsProvider.self) { r in try KeepsItsProvider(provider: r.resolve()) }.scope(.container)
        weak var weakTest: TestContainer?
        var kept: KeepsItsProvider?
        do {
            let test = TestContainer(base: base)
            kept = try test.resolve(KeepsItsProvider.self)
            weakTest = test
        }
        #expect(weakTest == nil)
        let error = try #require(throws: ResolutionError.self) { try kept?.provider() }
        #expect(error.identifier == "container-released")
    }
}
