import Foundation
import Testing
import Wiring
import WiringTestHelpers

@MainActor
final class ProductViewModel {
    let id: String
    let page: Int?
    let connection: Connection
    init(id: String, page: Int?, connection: Connection) {
        self.id = id
        self.page = page
        self.connection = connection
    }
}

protocol ProductScreen: AnyObject {}
extension ProductViewModel: ProductScreen {}

final class RequestHandler {
    let requestID: String
    let userID: Int
    let repository: Connection
    init(requestID: String, userID: Int, repository: Connection) {
        self.requestID = requestID
        self.userID = userID
        self.repository = repository
    }
}

final class RateLimiter: Sendable {
    let userID: String
    init(userID: String) { self.userID = userID }
}

/// Not `Hashable`: a kept scope cannot tell two of these apart.
struct UserSession {
    let userID: String
}

@Suite struct IsolatedArgumentsTests {
    private func appContainer() -> Container {
        let container = Container()
        container.register(Connection.self) { _ in Connection(url: "db") }.scope(.container)
        container.registerMainActor(ProductViewModel.self) { (r, id: String, page: Int?) in
            try ProductViewModel(id: id, page: page, connection: r.resolve())
        }
        return container
    }

    @Test @MainActor func aMainActorFactoryWithArgumentsResolvesSynchronouslyOnTheMainActor() throws {
        let container = appContainer()
        let model = try container.resolve(ProductViewModel.self, arguments: "p-1", Int?.some(2))
        #expect(model.id == "p-1")
        #expect(model.page == 2)
        let noPage = try container.resolve(ProductViewModel.self, arguments: "p-2", Int?.none)
        #expect(noPage.page == nil)
    }

    @Test func aMainActorFactoryWithArgumentsResolvesWithAwaitFromAnywhere() async throws {
        let container = appContainer()
        let model = try await container.async.resolve(ProductViewModel.self, arguments: "p-3", Int?.some(7))
        let (id, page) = await MainActor.run { (model.id, model.page) }
        #expect(id == "p-3")
        #expect(page == 7)
    }

    @Test func aMainActorFactoryWithArgumentsOffTheMainThreadIsAnErrorNotATrap() throws {
        let container = appContainer()
        let result = LockedBox<ResolutionError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                _ = try container.resolve(ProductViewModel.self, arguments: "p", Int?.none)
            } catch let error as ResolutionError { result.set(error) } catch {}
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success, "the resolve did not return within 30 s")
        let error = try #require(result.get())
        #expect(error.identifier == "requires-await")
        #expect(error.summary.contains("isolated to the main actor"))
        #expect(error.fix.contains("container.async.resolve(ProductViewModel.self, arguments:"))
    }

    @Test @MainActor func aProviderOfAMainActorRegistrationWithArgumentsPassesThem() throws {
        let container = appContainer()
        let provider = try container.resolve(Provider<ProductViewModel>.self)
        let model = try provider("p-4", Int?.some(1))
        #expect(model.id == "p-4")
    }

    @Test @MainActor func namesScopesImplementsAndHooksWorkForMainActorFactoriesWithArguments() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection(url: "db") }
        let hooked = LockedCounter()
        container.registerMainActor(ProductViewModel.self, name: "kept") { (r, id: String, page: Int?) in
            try ProductViewModel(id: id, page: page, connection: r.resolve())
        }
        .scope(.container)
        .implements(ProductScreen.self, name: "kept")
        .initCompleted { _, _ in hooked.increment() }
        let first = try container.resolve(ProductViewModel.self, name: "kept", arguments: "a", Int?.none)
        let again = try container.resolve(ProductViewModel.self, name: "kept", arguments: "a", Int?.none)
        let other = try container.resolve(ProductViewModel.self, name: "kept", arguments: "b", Int?.none)
        let screen = try container.resolve(ProductScreen.self, name: "kept", arguments: "a", Int?.none)
        #expect(first === again)
        #expect(first !== other)
        #expect(screen === first)
        #expect(hooked.value == 2)
    }

    @Test func anAsyncFactoryTakesRuntimeArguments() async throws {
        let container = Container()
        container.registerAsync(Connection.self) { _ in try await Connection.open("pool") }.scope(.container)
        container.registerAsync(RequestHandler.self) { (r, requestID: String, userID: Int) in
            try await RequestHandler(requestID: requestID, userID: userID, repository: r.resolve())
        }
        let handler = try await container.async.resolve(RequestHandler.self, arguments: "r-1", 42)
        #expect(handler.requestID == "r-1")
        #expect(handler.userID == 42)
        #expect(handler.repository.url == "pool")
        let second = try await container.async.resolve(RequestHandler.self, arguments: "r-2", 42)
        #expect(second !== handler)
        #expect(second.repository === handler.repository)
    }

    @Test func anAsyncFactoryWithArgumentsResolvedSynchronouslyIsRequiresAwait() throws {
        let container = Container()
        container.registerAsync(RequestHandler.self) { (_, requestID: String, userID: Int) in
            RequestHandler(requestID: requestID, userID: userID, repository: Connection(url: "x"))
        }
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(RequestHandler.self, arguments: "r", 1)
        }
        #expect(error?.identifier == "requires-await")
    }

    @Test func anAsyncFactoryWithArgumentsIsServedUnderAnotherTypeWithAwait() async throws {
        let container = Container()
        container.registerAsync(RateLimiter.self) { (_, user: String) in RateLimiter(userID: user) }
            .implements(AnyObject.self)
        let object = try await container.async.resolve(AnyObject.self, arguments: "u1")
        #expect((object as? RateLimiter)?.userID == "u1")
    }

    @Test func aKeptScopeKeepsOneInstancePerDistinctHashableArguments() throws {
        let container = Container()
        container.register(RateLimiter.self) { (_, user: String) in RateLimiter(userID: user) }.scope(.container)
        let u1 = try container.resolve(RateLimiter.self, arguments: "u1")
        let u2 = try container.resolve(RateLimiter.self, arguments: "u2")
        #expect(u1.userID == "u1")
        #expect(u2.userID == "u2")
        #expect(try container.resolve(RateLimiter.self, arguments: "u1") === u1)
        #expect(try container.resolve(RateLimiter.self, arguments: "u2") === u2)
    }

    @Test func optionalArgumentsTellNilApart() throws {
        let container = Container()
        container.register(RateLimiter.self) { (_, user: String?) in RateLimiter(userID: user ?? "anonymous") }
            .scope(.container)
        let anonymous = try container.resolve(RateLimiter.self, arguments: String?.none)
        let named = try container.resolve(RateLimiter.self, arguments: String?.some("u1"))
        #expect(anonymous.userID == "anonymous")
        #expect(named.userID == "u1")
        #expect(try container.resolve(RateLimiter.self, arguments: String?.none) === anonymous)
    }

    @Test func resettingAScopeDropsTheInstancesOfEveryArgumentValue() throws {
        let container = Container()
        container.register(RateLimiter.self) { (_, user: String) in RateLimiter(userID: user) }
            .scope(Scope("session"))
        let u1 = try container.resolve(RateLimiter.self, arguments: "u1")
        container.resetScope(Scope("session"))
        #expect(try container.resolve(RateLimiter.self, arguments: "u1") !== u1)
        let again = try container.resolve(RateLimiter.self, arguments: "u1")
        container.resetScope(Scope("session"), only: ServiceKey(RateLimiter.self, arguments: String.self))
        #expect(try container.resolve(RateLimiter.self, arguments: "u1") !== again)
    }

    @Test func aKeptScopeWithArgumentsThatAreNotHashableKeepsOneInstance() throws {
        let container = Container()
        container.register(RateLimiter.self) { (_, session: UserSession) in RateLimiter(userID: session.userID) }
            .scope(.container)
        let first = try container.resolve(RateLimiter.self, arguments: UserSession(userID: "u1"))
        let second = try container.resolve(RateLimiter.self, arguments: UserSession(userID: "u2"))
        #expect(second === first)
    }

    /// An async kept scope makes one instance per argument value however many tasks await it at
    /// once: 8 threads, released together, each awaiting one of 4 users' instance from a task of
    /// its own (two per user), in each of 40 fresh containers (fewer than `FactorySpeed.rounds`:
    /// `wiring-stress` races this shape harder).
    @Test(arguments: FactorySpeed.allCases)
    func anAsyncKeptScopeKeepsOneInstancePerArgumentsUnderContention(speed: FactorySpeed) async throws {
        let users = (0..<4).map { "u\($0)" }
        try await rounds(40) { round in
            let made = users.map { _ in LockedCounter() }
            let container = Container()
            container.registerAsync(RateLimiter.self) { (_, user: String) in
                made[users.firstIndex(of: user)!].increment()
                await speed.asyncWork()
                return RateLimiter(userID: user)
            }
            .scope(.container)
            let seen = users.map { _ in IdentityCollector() }
            let failures = LockedCounter()
            let wrongUser = LockedCounter()
            let finished = await raceThreadsAsync(8) { index in
                let user = index % users.count
                awaitOnThisThread {
                    if let limiter = try? await container.async.resolve(RateLimiter.self, arguments: users[user]) {
                        if limiter.userID != users[user] { wrongUser.increment() }
                        seen[user].insert(limiter)
                    } else {
                        failures.increment()
                    }
                }
            }
            try #require(finished, "round \(round): the tasks did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(wrongUser.value == 0, "round \(round): \(wrongUser.value) resolves got another user's instance")
            try #require(
                made.map(\.value) == [1, 1, 1, 1], "round \(round): made per user \(made.map(\.value)), not once each")
            try #require(
                seen.map(\.distinctCount) == [1, 1, 1, 1],
                "round \(round): instances per user \(seen.map(\.distinctCount)), not one each")
        }
    }

    @Test func aPlainFactoryThatResolvesAMainActorOneOffTheMainActorSaysToMoveItThere() throws {
        final class Screen: @unchecked Sendable {
            init(model: ProductViewModel) {}
        }
        let container = appContainer()
        container.register(Screen.self) { r in try Screen(model: r.resolve(arguments: "p", Int?.none)) }
        let result = LockedBox<ResolutionError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { _ = try container.resolve(Screen.self) } catch let error as ResolutionError { result.set(error) } catch {}
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success, "the resolve did not return within 30 s")
        let error = try #require(result.get())
        #expect(error.identifier == "requires-await")
        #expect(error.fix == """
            the factory of Screen resolves it synchronously, so resolve Screen from @MainActor code, or register Screen \
            with `registerMainActor` too: then `try await container.async.resolve(Screen.self)` hops to the main actor for both.
            """)
    }

    @Test func anAsyncResolveOfAPlainFactoryThatNeedsTheMainActorHopsThere() async throws {
        final class Screen: @unchecked Sendable {
            let model: ProductViewModel
            init(model: ProductViewModel) { self.model = model }
        }
        let container = appContainer()
        container.register(Screen.self) { r in try Screen(model: r.resolve(arguments: "p-9", Int?.none)) }
        let screen = try await Task.detached { try await container.async.resolve(Screen.self) }.value
        let id = await MainActor.run { screen.model.id }
        #expect(id == "p-9")
    }

    /// DESIGN.md section 3, as written there: an optional argument given with `as`.
    @Test @MainActor func theDesignsCallsResolveAsWritten() async throws {
        let container = appContainer()
        let model = try container.resolve(ProductViewModel.self, arguments: "c-1", 2 as Int?)        // on the main actor
        let anywhere = try await container.async.resolve(ProductViewModel.self, arguments: "c-1", 2 as Int?)  // from anywhere
        #expect(model.page == 2)
        #expect(anywhere.page == 2)
        #expect(model !== anywhere, ".transient: a new one each time")
    }
}
