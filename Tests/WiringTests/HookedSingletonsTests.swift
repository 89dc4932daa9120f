import Foundation
import Testing
import Wiring
import WiringTestHelpers

/// Two `.container` singletons whose `initCompleted` hooks resolve each other, asked for from 8
/// threads at once: one instance of each is handed out and, when the hooks use their resolver,
/// each factory runs once. (Two threads that start one each would each hold one and wait for the
/// other; synchronous steps make hooked singletons one at a time instead, see `Creations`.)
@Suite("Singletons whose hooks resolve each other")
struct HookedSingletonsTests {
    final class First: @unchecked Sendable {
        var second: Second?
    }

    final class Second: @unchecked Sendable {
        var first: First?
    }

    /// How a hook reaches the other singleton.
    enum Reach: CaseIterable, Sendable {
        /// Through the resolver the hook receives.
        case resolver
        /// Through a container the hook captured, from a child container's resolve: that call is
        /// a resolution of its own, which may make the instance still in its hooks once more
        /// (the first one published is the one everybody gets), on one thread as on eight.
        case capturedContainer

        /// How often each factory may run.
        var factoryRuns: ClosedRange<Int> { self == .resolver ? 1...1 : 1...2 }
    }

    @Test(arguments: FactorySpeed.allCases, Reach.allCases)
    func eachFactoryRunsOnceUnderContention(speed: FactorySpeed, reach: Reach) async throws {
        try await rounds(speed.rounds) { round in
            let firstsMade = LockedCounter()
            let secondsMade = LockedCounter()
            let parent = Container()
            let asked = reach == .resolver ? parent : Container(parent: parent)
            parent.register(First.self) { _ in
                firstsMade.increment()
                speed.work()
                return First()
            }.scope(.container).initCompleted { r, first in
                speed.work()
                first.second = try reach == .resolver ? r.resolve(Second.self) : parent.resolve(Second.self)
            }
            parent.register(Second.self) { _ in
                secondsMade.increment()
                speed.work()
                return Second()
            }.scope(.container).initCompleted { r, second in
                speed.work()
                second.first = try reach == .resolver ? r.resolve(First.self) : parent.resolve(First.self)
            }
            let firsts = IdentityCollector()
            let seconds = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(8) { thread in
                do {
                    if thread.isMultiple(of: 2) {
                        firsts.insert(try asked.resolve(First.self))
                    } else {
                        seconds.insert(try asked.resolve(Second.self))
                    }
                } catch {
                    failures.increment()
                }
            }
            try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
            #expect(failures.value == 0, "round \(round)")
            #expect(reach.factoryRuns.contains(firstsMade.value), "round \(round): First's factory ran \(firstsMade.value) times")
            #expect(reach.factoryRuns.contains(secondsMade.value), "round \(round): Second's factory ran \(secondsMade.value) times")
            #expect(firsts.distinctCount == 1 && seconds.distinctCount == 1, "round \(round)")
            let first = try parent.resolve(First.self)
            #expect(first.second?.first === first, "round \(round): the two refer to each other")
        }
    }
}
