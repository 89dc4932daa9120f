import Wiring

// A small shop app: a network layer, a storage layer, analytics, and a screen's view model.

protocol HTTPClient: AnyObject { var baseURL: String { get } }
final class URLSessionClient: HTTPClient {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}

final class ShopAPI {
    let http: HTTPClient
    init(http: HTTPClient) { self.http = http }
}

protocol Database: AnyObject { var path: String { get } }
final class SQLiteDatabase: Database {
    let path: String
    init(path: String) { self.path = path }
}

final class ProductRepository {
    let api: ShopAPI
    let database: Database
    init(api: ShopAPI, database: Database) {
        self.api = api
        self.database = database
    }
}

protocol AnalyticsTracker: AnyObject { var vendor: String { get } }
final class ConsoleTracker: AnalyticsTracker { let vendor = "console" }
final class RemoteTracker: AnalyticsTracker { let vendor = "remote" }

final class Session {
    let user: String
    init(user: String) { self.user = user }
}

/// Builds itself: no registration needed.
final class Cart: Injectable {
    let session: Session
    init(resolver: Resolver) throws { session = try resolver.resolve() }
}

final class ProductViewModel {
    let productID: Int
    let repository: ProductRepository
    let cart: Cart
    let trackers: [AnalyticsTracker]
    init(productID: Int, repository: ProductRepository, cart: Cart, trackers: [AnalyticsTracker]) {
        self.productID = productID
        self.repository = repository
        self.cart = cart
        self.trackers = trackers
    }
}

extension Scope {
    static let session = Scope("session")
}

struct NetworkModule: Module {
    func register(in container: Container) {
        container.register(HTTPClient.self) { _ in URLSessionClient(baseURL: "https://shop.example") }
            .scope(.container)
        container.autoregister(ShopAPI.self, initializer: ShopAPI.init)
    }
}

struct StorageModule: Module {
    func register(in container: Container) {
        container.register(Database.self) { _ in SQLiteDatabase(path: "shop.sqlite") }.scope(.container)
        container.autoregister(ProductRepository.self, initializer: ProductRepository.init)
    }
}

struct AnalyticsModule: Module {
    func register(in container: Container) {
        container.register(AnalyticsTracker.self, name: "console") { _ in ConsoleTracker() }.scope(.container)
        container.register(AnalyticsTracker.self, name: "remote") { _ in RemoteTracker() }.scope(.container)
    }
}

struct ScreensModule: Module {
    func register(in container: Container) {
        container.register(Session.self) { _ in Session(user: "ada") }.scope(.session)
        container.register(ProductViewModel.self) { (r, productID: Int) in
            try ProductViewModel(
                productID: productID, repository: r.resolve(), cart: r.resolve(),
                trackers: r.resolveAll(AnalyticsTracker.self))
        }
    }
}

func makeAppContainer() -> Container {
    Container(modules: [NetworkModule(), StorageModule(), AnalyticsModule(), ScreensModule()])
}
