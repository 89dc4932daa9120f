import Foundation
import Testing
import Wiring
import WiringTestHelpers

private final class Slow: @unchecked Sendable {}

/// Holds the lazy a factory reads, set before the first read.
private final class LazySlot: @unchecked Sendable {
    var lazy: Lazy<Slow>?
}

/// What a racing thread's read gave.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<Slow, ResolutionError>?
    var value: Result<Slow, ResolutionError>? { lock.withLock { stored } }
    func set(_ result: Result<Slow, ResolutionError>) { lock.withLock { stored = result } }
}

/// `Lazy.value` resolves once: other threads wait for the first reader, and the thread resolving
/// it that reads it again meets its own cycle instead of waiting for itself.
@Suite("Lazy resolves once")
struct LazyGateTests {
    @Test(arguments: FactorySpeed.allCases)
    func threadsReadingOneLazyTogetherGetOneInstanceFromOneFactoryRun(speed: FactorySpeed) throws {
        for _ in 0..<speed.rounds {
            let made = LockedCounter()
            let container = Container()
            container.register(Slow.self) { _ in
                made.increment()
                speed.work()
                return Slow()
            }
            let lazy = try container.resolve(Lazy<Slow>.self)
            let seen = IdentityCollector()
            let finished = raceThreads(8) { _ in
                for _ in 0..<50 { seen.insert(try! lazy.value) }
            }
            #expect(finished, "threads reading one Lazy did not finish: a deadlock")
            #expect(made.value == 1, "a transient service behind one Lazy was made \(made.value) times")
            #expect(seen.distinctCount == 1)
        }
    }

    @Test func theThreadResolvingALazyThatReadsItAgainGetsACycleNotAHang() throws {
        let container = Container()
        let slot = LazySlot()
        container.register(Slow.self) { _ in
            _ = try slot.lazy?.value
            return Slow()
        }
        let lazy = try container.resolve(Lazy<Slow>.self)
        slot.lazy = lazy
        // On a thread of its own, bounded: a lazy that waited for itself would hang.
        let outcome = Outcome()
        let finished = raceThreads(1, timeout: .seconds(30)) { _ in
            outcome.set(Result { () throws(ResolutionError) in try lazy.value })
        }
        try #require(finished, "reading a lazy inside its own resolution hung")
        guard case .failure(let error) = outcome.value, case .circularDependency(let cycle) = error.reason else {
            Issue.record("expected a circular dependency, got \(String(describing: outcome.value))")
            return
        }
        #expect(cycle.first == ServiceKey(Slow.self) && cycle.last == ServiceKey(Slow.self))
        // The result is kept: a later read reports the same error without resolving again.
        #expect(throws: ResolutionError.self) { try lazy.value }
        #expect(lazy.isResolved)
    }
}
