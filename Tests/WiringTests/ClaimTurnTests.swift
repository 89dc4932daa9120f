import Foundation
import Testing
import Wiring
import WiringTestHelpers

/// A resolution that waits for another's claim takes the next turn when that one gives it back:
/// it finds the instance published, or, when the maker failed and published nothing, claims it
/// and makes it itself. The synchronous and the asynchronous step take the same turns.
@Suite("Claims: the turn after a wait")
struct ClaimTurnTests {
    /// Thread 0 makes a `.container` singleton whose first factory call fails after thread 1 has
    /// started waiting for it: thread 1 then makes it, once, and every later resolve gets its
    /// instance.
    @Test func aThreadWaitingForAMakerThatFailsMakesTheInstanceItself() throws {
        let calls = LockedCounter()
        let firstCallStarted = DispatchSemaphore(value: 0)
        let container = Container()
        container.register(Leaf.self) { _ in
            calls.increment()
            guard calls.value > 1 else {
                firstCallStarted.signal()
                Thread.sleep(forTimeInterval: 0.1)  // thread 1 starts waiting meanwhile
                throw SampleError()
            }
            return Leaf()
        }.scope(.container)
        let failures = LockedCounter()
        let made = IdentityCollector()
        let finished = raceThreads(2) { thread in
            if thread == 1 { _ = firstCallStarted.wait(timeout: .now() + 10) }
            do {
                made.insert(try container.resolve(Leaf.self))
            } catch let error as ResolutionError where error.identifier == "factory-failed" && thread == 0 {
                failures.increment()
            } catch {
                Issue.record("thread \(thread): unexpected \(error)")
            }
        }
        try #require(finished, "the threads did not finish in time (a deadlock?)")
        #expect(failures.value == 1)
        #expect(calls.value == 2)
        #expect(made.distinctCount == 1)
        made.insert(try container.resolve(Leaf.self))
        #expect(made.distinctCount == 1)
        #expect(calls.value == 2)
    }

    /// The same with an async factory and two tasks: the waiting task suspends, then makes the
    /// instance once the first one's factory has failed.
    @Test func aTaskWaitingForAMakerThatFailsMakesTheInstanceItself() async throws {
        let calls = LockedCounter()
        let firstCallStarted = DispatchSemaphore(value: 0)
        let container = Container()
        container.registerAsync(Leaf.self) { _ in
            calls.increment()
            guard calls.value > 1 else {
                firstCallStarted.signal()
                try await Task.sleep(for: .milliseconds(100))  // the second task starts waiting meanwhile
                throw SampleError()
            }
            return Leaf()
        }.scope(.container)
        let failures = LockedCounter()
        let made = IdentityCollector()
        let finished = await raceThreadsAsync(2) { thread in
            if thread == 1 { _ = firstCallStarted.wait(timeout: .now() + 10) }
            // What the task threw, if anything (the instance itself is not Sendable).
            let failure = awaitOnThisThread { () async -> String? in
                do {
                    made.insert(try await container.async.resolve(Leaf.self))
                    return nil
                } catch let error as ResolutionError {
                    return error.identifier
                } catch {
                    return "\(error)"
                }
            }
            switch failure {
            case nil: break
            case "factory-failed" where thread == 0: failures.increment()
            case let other?: Issue.record("task \(thread): unexpected \(other)")
            }
        }
        try #require(finished, "the threads did not finish in time (a deadlock?)")
        #expect(failures.value == 1)
        #expect(calls.value == 2)
        #expect(made.distinctCount == 1)
        made.insert(try await container.async.resolve(Leaf.self))
        #expect(made.distinctCount == 1)
        #expect(calls.value == 2)
    }
}
