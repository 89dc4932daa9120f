import Wiring

// The storage layer: a database, and the repository that joins it with the API.

protocol Database: AnyObject {
    var path: String { get }
}

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

/// Registers the storage layer: one database per container, and an autowired repository over it.
struct StorageModule: Module {
    func register(in container: Container) {
        container.register(Database.self) { _ in SQLiteDatabase(path: "shop.sqlite") }.scope(.container)
        container.autoregister(ProductRepository.self, initializer: ProductRepository.init)
    }
}
