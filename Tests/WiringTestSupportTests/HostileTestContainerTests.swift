import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport
import XCTest

private final class Kept: @unchecked Sendable {}

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
