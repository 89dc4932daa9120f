import Testing
import Wiring
import WiringTestSupport

// The examples (Scopes and AsyncAndMainActor articles) of per-argument kept instances, async resolvers and apps on the main
// actor, verbatim inside tests that check what their comments say.

final class RateLimiter: Sendable {
    let userID: String
    init(userID: String) { self.userID = userID }
}

final class Catalog {
    let database: Database
    init(database: Database) { self.database = database }
}

final class ItemRepository: Sendable {}

@MainActor
final class ItemViewModel {
    let id: String
    let page: Int?
    init(id: String, page: Int?, repository: ItemRepository) {
        self.id = id
        self.page = page
    }
}

final class OrderHandler: Sendable {
    let orderID: String
    init(orderID: String, database: Database) { self.orderID = orderID }
}


func openCatalog(from resolver: any Resolver) async throws -> Catalog {
    try await Catalog(database: resolver.async.resolve(Database.self))
}

@Suite struct MainActorAppsReadme {
    @Test func aKeptScopeKeepsOneInstancePerArguments() throws {
        let container = Container()
        container.register(RateLimiter.self) { (_, userID: String) in RateLimiter(userID: userID) }.scope(.container)
        let forAda = try container.resolve(RateLimiter.self, arguments: "ada")     // made and kept for "ada"
        let forBob = try container.resolve(RateLimiter.self, arguments: "bob")     // another one, kept for "bob"
        #expect(forAda !== forBob)
        #expect(try container.resolve(RateLimiter.self, arguments: "ada") === forAda)
    }

    @Test func oneHelperServesAContainerAndATestContainer() async throws {
        let container = Container()
        container.registerAsync(Database.self) { _ in Database() }.scope(.container)
        let live = try await openCatalog(from: container)
        let test = TestContainer(base: container)
        let stub = Database()
        test.override(Database.self) { _ in stub }
        #expect(try await openCatalog(from: test).database === stub)
        #expect(try await openCatalog(from: container).database === live.database)
    }

    @Test @MainActor func mainActorAndAsyncFactoriesTakeArguments() async throws {
        let container = Container()
        container.register(ItemRepository.self) { _ in ItemRepository() }
        container.registerAsync(Database.self) { _ in Database() }.scope(.container)
        container.registerMainActor(ItemViewModel.self) { (r, id: String, page: Int?) in
            try ItemViewModel(id: id, page: page, repository: r.resolve())
        }
        container.registerAsync(OrderHandler.self) { (r, orderID: String) in
            try await OrderHandler(orderID: orderID, database: r.resolve())
        }
        let model = try container.resolve(ItemViewModel.self, arguments: "p-1", Int?.none)       // on the main actor
        let anywhere = try await container.async.resolve(ItemViewModel.self, arguments: "p-1", Int?.some(2))  // hops there
        let handler = try await container.async.resolve(OrderHandler.self, arguments: "o-7")
        #expect(model.page == nil)
        #expect(anywhere.page == 2)
        #expect(handler.orderID == "o-7")

        let test = TestContainer(base: container)
        let report = await test.verifyWiringAsync { samples in
            samples.add(ItemViewModel.self, arguments: "p-1", Int?.none)
            samples.add(OrderHandler.self, arguments: "o-7")
        }
        #expect(report.isComplete, "\(report)")
        let manifest = await test.wiringManifestAsync()    // the needs of async and main-actor factories too
        #expect(manifest.render().contains("OrderHandler (arguments: String) [.transient]"))
    }
}
