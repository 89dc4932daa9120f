import Foundation
import Testing
import Wiring
import WiringTestHelpers

final class Connection {
    let url: String
    init(url: String) { self.url = url }

    static func open(_ url: String) async throws -> Connection {
        try await Task.sleep(nanoseconds: 1_000_000)
        return Connection(url: url)
    }
}

@MainActor
final class ViewModel {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
}

@Suite("Async and main-actor factories")
struct AsyncTests {
    @Test func anAsyncFactoryIsAwaited() async throws {
        let container = Container()
        container.register(String.self) { _ in "db://local" }
        container.registerAsync(Connection.self) { r in try await Connection.open(r.resolve(String.self)) }
        let connection = try await container.async.resolve(Connection.self)
        #expect(connection.url == "db://local")
    }

    @Test func aRegistrationSaysWhereItsFactoryRuns() {
        let container = Container()
        container.register(Connection.self) { _ in Connection(url: "x") }
        container.registerAsync(Connection.self, name: "async") { _ in Connection(url: "y") }
        container.registerMainActor(ViewModel.self) { _ in ViewModel(connection: Connection(url: "z")) }
        #expect(container.registration(for: ServiceKey(Connection.self))?.isolation == nil)
        #expect(container.registration(for: ServiceKey(Connection.self, name: "async"))?.isolation == .async)
        #expect(container.registration(for: ServiceKey(ViewModel.self))?.isolation == .mainActor)
        #expect(container.registrations.map { $0.isolation.map(String.init(describing:)) } == [nil, "async", "main actor"])
    }

    @Test func asyncFactoriesShareScopesAndPaths() async throws {
        final class Repository {
            let a: Connection, b: Connection
            init(a: Connection, b: Connection) { (self.a, self.b) = (a, b) }
        }
        let container = Container()
        container.registerAsync(Connection.self) { _ in try await Connection.open("graph") }
        container.registerAsync(Repository.self) { r in
            try await Repository(a: r.resolve(), b: r.resolve())
        }
        let first = try await container.async.resolve(Repository.self)
        let second = try await container.async.resolve(Repository.self)
        #expect(first.a === first.b, ".graph shares within one resolve")
        #expect(first.a !== second.a)
    }

    /// An async singleton is made once however many tasks await it at once: 8 threads, released
    /// together, each awaiting it from a task of its own, in each of many fresh containers
    /// (`FactorySpeed.rounds`).
    @Test(arguments: FactorySpeed.allCases)
    func anAsyncSingletonIsMadeOnceUnderConcurrentRequests(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let made = LockedCounter()
            let container = Container()
            container.registerAsync(Connection.self) { _ in
                made.increment()
                await speed.asyncWork()
                return Connection(url: "shared")
            }.scope(.container)
            let seen = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(8) { _ in
                awaitOnThisThread {
                    if let connection = try? await container.async.resolve(Connection.self) {
                        seen.insert(connection)
                    } else {
                        failures.increment()
                    }
                }
            }
            try #require(finished, "round \(round): the tasks did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(made.value == 1, "round \(round): the async singleton was made \(made.value) times")
            try #require(seen.distinctCount == 1, "round \(round): \(seen.distinctCount) different instances handed out")
            let again = try await container.async.resolve(Connection.self)
            seen.insert(again)
            try #require(seen.distinctCount == 1, "round \(round): a later resolve gave another instance")
        }
    }

    @Test func aSynchronousResolveOfAnAsyncFactoryExplainsWhatToDo() throws {
        let container = Container()
        container.registerAsync(Connection.self) { _ in try await Connection.open("x") }
        container.register(Leaf.self) { r in _ = try r.resolve(Connection.self); return Leaf() }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
        #expect(error.identifier == "requires-await")
        #expect(error.description.hasPrefix("""
            error: the factory of Connection is async, so a synchronous resolve cannot run it
              path: Leaf -> Connection
            """))
        #expect(error.fix == "resolve it with `try await container.async.resolve(Connection.self)`, or from an async factory (`registerAsync`).")
    }

    @Test func asyncResolutionFindsMissingRegistrationsAndCycles() async throws {
        final class Ping {}
        final class Pong {}
        let container = Container()
        container.registerAsync(Ping.self) { r in _ = try await r.resolve(Pong.self); return Ping() }
        container.registerAsync(Pong.self) { r in _ = try await r.resolve(Ping.self); return Pong() }
        await #expect(throws: ResolutionError.self) { try await container.async.resolve(Leaf.self) }
        do {
            _ = try await container.async.resolve(Ping.self)
            Issue.record("expected a cycle")
        } catch let error as ResolutionError {
            #expect(error.summary == "circular dependency while resolving Ping")
            #expect(error.path == [ServiceKey(Ping.self), ServiceKey(Pong.self), ServiceKey(Ping.self)])
        }
    }

    @Test func concurrentResolvesFromOneFactoryEachGetAResolutionOfTheirOwn() async throws {
        final class Pair {
            let first: Connection, second: Connection
            init(first: Connection, second: Connection) { (self.first, self.second) = (first, second) }
        }
        let container = Container()
        container.registerAsync(Connection.self) { _ in try await Connection.open("concurrent") }
        container.registerAsync(Pair.self) { r in
            async let first = r.resolve(Connection.self)
            async let second = r.resolve(Connection.self)
            return try await Pair(first: first, second: second)
        }
        // Run under Thread Sanitizer in CI: the two calls once shared one path and `.graph` table.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 {
                        let pair = try await container.async.resolve(Pair.self)
                        #expect(pair.first.url == "concurrent" && pair.second.url == "concurrent")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aCycleThroughConcurrentResolvesIsFound() async throws {
        final class Node {}
        let container = Container()
        container.registerAsync(Node.self) { r in
            async let first = r.resolve(Connection.self)
            async let second = r.resolve(Node.self)
            _ = try await (first, second)
            return Node()
        }
        container.registerAsync(Connection.self) { _ in try await Connection.open("slow") }
        let error = try await #require(throws: ResolutionError.self) { try await container.async.resolve(Node.self) }
        #expect(error.summary == "circular dependency while resolving Node")
        #expect(error.path == [ServiceKey(Node.self), ServiceKey(Node.self)])
    }

    @Test func aThrowingAsyncFactoryIsWrapped() async throws {
        let container = Container()
        container.registerAsync(Connection.self) { _ -> Connection in throw SampleError() }
        do {
            _ = try await container.async.resolve(Connection.self)
            Issue.record("expected an error")
        } catch let error as ResolutionError {
            #expect(error.summary == "the factory of Connection threw: the disk is full")
        }
    }

    @MainActor
    @Test func aMainActorFactoryResolvesSynchronouslyOnTheMainActor() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection(url: "main") }
        container.registerMainActor(ViewModel.self) { r in try ViewModel(connection: r.resolve()) }
        let model = try container.resolve(ViewModel.self)
        #expect(model.connection.url == "main")
    }

    @Test func aMainActorFactoryResolvesWithAwaitFromElsewhere() async throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection(url: "hop") }
        container.registerMainActor(ViewModel.self) { r in try ViewModel(connection: r.resolve()) }.scope(.container)
        let model = try await container.async.resolve(ViewModel.self)
        let url = await MainActor.run { model.connection.url }
        #expect(url == "hop")
        #expect(try await container.async.resolve(ViewModel.self) === model)
    }

    @Test func aMainActorFactoryOffTheMainThreadIsAnErrorNotATrap() throws {
        let container = Container()
        container.registerMainActor(ViewModel.self) { _ in ViewModel(connection: Connection(url: "x")) }
        let result = LockedBox<ResolutionError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { _ = try container.resolve(ViewModel.self) } catch let error as ResolutionError { result.set(error) } catch {}
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success, "the resolve did not return within 30 s")
        let error = try #require(result.get())
        #expect(error.summary == "the factory of ViewModel is isolated to the main actor, and this synchronous resolve is not running on the main actor")
        #expect(error.fix == "resolve it from @MainActor code, or with `try await container.async.resolve(ViewModel.self)` from anywhere.")
    }
}

/// A view model on the main actor, whose router is set after it is made.
@MainActor private final class RoutedViewModel {
    var router: String?
    var hookRanOnMainThread = false
}

@Suite struct MainActorInitCompletedTests {
    private func makeContainer() -> Container {
        let container = Container()
        container.register(String.self) { _ in "router" }
        container.registerMainActor(RoutedViewModel.self) { _ in RoutedViewModel() }
            .scope(.transient)
            .initCompleted { r, model in
                // Main-actor state, set from a hook typed @MainActor.
                model.router = try r.resolve(String.self)
                model.hookRanOnMainThread = MainQueue.isCurrent
            }
        return container
    }

    @MainActor @Test func theHookRunsOnTheMainActorWhenResolvedSynchronouslyThere() throws {
        let model = try makeContainer().resolve(RoutedViewModel.self)
        #expect(model.router == "router")
        #expect(model.hookRanOnMainThread)
    }

    @Test func theHookRunsOnTheMainActorWhenAwaitedFromElsewhere() async throws {
        let container = makeContainer()
        for _ in 0..<20 {
            let model = try await Task.detached { try await container.async.resolve(RoutedViewModel.self) }.value
            let (router, onMain) = await MainActor.run { (model.router, model.hookRanOnMainThread) }
            #expect(router == "router")
            #expect(onMain)
        }
    }
}
