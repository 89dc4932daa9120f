import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// An override, a fake or a test container's registration written in an isolated context runs
// only in that isolation: a @MainActor test's double may capture main-actor state.

/// State only the main actor touches, as a view model's would be.
@MainActor private final class MainActorCounter {
    var made = 0
}

/// An actor other than the main one, as a test isolated to it would run on.
@globalActor private actor CheckoutActor {
    static let shared = CheckoutActor()
}

@CheckoutActor private final class CheckoutActorCounter {
    var made = 0
}

/// A double the test keeps, which is not `Sendable`.
private final class IsolationSpyNetwork: Network {
    var label: String { "spy" }
}

@Suite struct OverrideIsolationTests {
    @MainActor @Test(.timeLimit(.minutes(4)))
    func aMainActorTestsOverrideNeverRunsOffTheMainActorAndAnAwaitedResolveHopsThere() async throws {
        let counter = MainActorCounter()
        let test = TestContainer(base: makeAppContainer())
        test.override((any Network).self) { _ in
            counter.made += 1                                    // main-actor state: safe only on the main actor
            return FakeNetwork()
        }.scope(.transient)

        // Resolved synchronously from other threads, many at once: each throws, none runs it.
        let errors = await withTaskGroup(of: ResolutionError?.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do {
                        _ = try test.resolve((any Network).self)
                        return nil
                    } catch {
                        return error as? ResolutionError
                    }
                }
            }
            var errors: [ResolutionError?] = []
            for await error in group { errors.append(error) }
            return errors
        }
        #expect(errors.count == 200)
        #expect(errors.allSatisfy { $0?.identifier == "requires-await" })
        #expect(counter.made == 0)
        let error = try #require(errors.first ?? nil)
        #expect(error.description.contains("is isolated to the main actor, and this synchronous resolve is not running on the main actor"))
        #expect(error.description.contains("fix: resolve it from @MainActor code, or with `try await container.async.resolve(Network.self)` from anywhere."))

        // Awaited from elsewhere, it hops to the main actor; on the main actor, it just runs.
        for _ in 0..<20 {
            let network = try await Task.detached { try await test.async.resolve((any Network).self) }.value
            #expect(network is FakeNetwork)
        }
        _ = try test.resolve((any Network).self)
        #expect(counter.made == 21)
    }

    @MainActor @Test func aMainActorTestsFakeAndRegistrationKeepTheirIsolationToo() async throws {
        let counter = MainActorCounter()
        let test = TestContainer(base: Container())
        test.fakes.register((any Logger).self) {
            counter.made += 1
            return ConsoleLogger()
        }
        test.register(Database.self) { _ in
            counter.made += 1
            return Database()
        }
        let offMain = await Task.detached {
            ((try? test.resolve((any Logger).self)) == nil, (try? test.resolve(Database.self)) == nil)
        }.value
        #expect(offMain == (true, true))
        #expect(counter.made == 0)
        _ = try await Task.detached { try await test.async.resolve((any Logger).self) }.value
        _ = try await Task.detached { try await test.async.resolve(Database.self) }.value
        #expect(counter.made == 2)
    }

    @MainActor @Test func aMainActorTestsOverrideWithRuntimeArgumentsKeepsItsIsolation() async throws {
        let counter = MainActorCounter()
        let test = TestContainer(base: Container())
        test.register(String.self) { (_, count: Int) in
            counter.made += 1
            return "\(count) made"
        }
        let offMain = await Task.detached { (try? test.resolve(String.self, arguments: 2)) == nil }.value
        #expect(offMain)
        #expect(counter.made == 0)
        let awaited = try await Task.detached { try await test.async.resolve(String.self, arguments: 3) }.value
        #expect(awaited == "3 made")
        #expect(try test.resolve(String.self, arguments: 4) == "4 made")
        #expect(counter.made == 2)
    }

    @CheckoutActor @Test func anotherActorsOverrideThrowsWhenResolvedSynchronouslyAndHopsWhenAwaited() async throws {
        let counter = CheckoutActorCounter()
        let test = TestContainer(base: makeAppContainer())
        test.override((any Network).self) { _ in
            counter.made += 1
            return FakeNetwork()
        }.scope(.transient)
        test.register(String.self) { (_, count: Int) in
            counter.made += count
            return "\(count)"
        }
        let error = #expect(throws: ResolutionError.self) { try test.resolve((any Network).self) }
        #expect(error?.identifier == "requires-await")
        #expect(counter.made == 0)

        let network = try await Task.detached { try await test.async.resolve((any Network).self) }.value
        #expect(network is FakeNetwork)
        #expect(try await test.async.resolve(String.self, arguments: 5) == "5")
        #expect(counter.made == 6)
    }

    /// From a nonisolated test, a double the test keeps works from any thread, as before.
    @Test func aNonisolatedTestsOverrideRunsWhereverItIsResolved() async throws {
        let spy = IsolationSpyNetwork()
        let test = TestContainer(base: makeAppContainer())
        test.override((any Network).self) { _ in spy }
        let fromElsewhere = try await Task.detached { try test.resolve((any Network).self).label }.value
        #expect(fromElsewhere == "spy")
    }
}
