// The services the scenarios build. All final classes with `let` properties only, so that the
// three variants pay for the same allocations and nothing else.

// MARK: 1. No dependencies

final class Leaf: Sendable {
    init() {}
}

// MARK: 2. Chain A(B(C))

final class ChainC: Sendable {
    init() {}
}

final class ChainB: Sendable {
    let c: ChainC
    init(c: ChainC) { self.c = c }
}

final class ChainA: Sendable {
    let b: ChainB
    init(b: ChainB) { self.b = b }
}

// MARK: 3. Ten-node graph
//
// Exactly 10 types. Resolving AppRoot asks for 23 services (1 + 22 edges) and makes 10 instances:
// AppConfig is asked for 5 times, AppLogger 7 times, Database, HTTPClient and UserRepository twice.
//
//   AppRoot ── UserService ──── UserRepository ── Database, Cache, AppLogger
//          │               └── AppLogger
//          ├── OrderService ─── OrderRepository ─ Database, HTTPClient, AppLogger
//          │               ├── UserRepository (shared)
//          │               └── AppLogger
//          ├── HTTPClient ───── AppConfig, AppLogger
//          └── AppConfig
//   AppLogger ── AppConfig;  Database, Cache ── AppConfig, AppLogger

final class AppConfig: Sendable {
    init() {}
}

final class AppLogger: Sendable {
    let config: AppConfig
    init(config: AppConfig) { self.config = config }
}

final class Database: Sendable {
    let config: AppConfig
    let logger: AppLogger
    init(config: AppConfig, logger: AppLogger) {
        self.config = config
        self.logger = logger
    }
}

final class Cache: Sendable {
    let config: AppConfig
    let logger: AppLogger
    init(config: AppConfig, logger: AppLogger) {
        self.config = config
        self.logger = logger
    }
}

final class HTTPClient: Sendable {
    let config: AppConfig
    let logger: AppLogger
    init(config: AppConfig, logger: AppLogger) {
        self.config = config
        self.logger = logger
    }
}

final class UserRepository: Sendable {
    let database: Database
    let cache: Cache
    let logger: AppLogger
    init(database: Database, cache: Cache, logger: AppLogger) {
        self.database = database
        self.cache = cache
        self.logger = logger
    }
}

final class OrderRepository: Sendable {
    let database: Database
    let http: HTTPClient
    let logger: AppLogger
    init(database: Database, http: HTTPClient, logger: AppLogger) {
        self.database = database
        self.http = http
        self.logger = logger
    }
}

final class UserService: Sendable {
    let users: UserRepository
    let logger: AppLogger
    init(users: UserRepository, logger: AppLogger) {
        self.users = users
        self.logger = logger
    }
}

final class OrderService: Sendable {
    let orders: OrderRepository
    let users: UserRepository
    let logger: AppLogger
    init(orders: OrderRepository, users: UserRepository, logger: AppLogger) {
        self.orders = orders
        self.users = users
        self.logger = logger
    }
}

final class AppRoot: Sendable {
    let userService: UserService
    let orderService: OrderService
    let http: HTTPClient
    let config: AppConfig
    init(userService: UserService, orderService: OrderService, http: HTTPClient, config: AppConfig) {
        self.userService = userService
        self.orderService = orderService
        self.http = http
        self.config = config
    }

    /// Whether the shared nodes really are shared: one instance each in the whole graph.
    var sharesNodes: Bool {
        let logger = userService.logger
        let config = logger.config
        return orderService.logger === logger
            && userService.users.logger === logger
            && orderService.orders.logger === logger
            && userService.users.database.logger === logger
            && userService.users.cache.logger === logger
            && http.logger === logger
            && orderService.users === userService.users
            && orderService.orders.database === userService.users.database
            && orderService.orders.http === http
            && self.config === config
            && http.config === config
            && userService.users.database.config === config
            && userService.users.cache.config === config
    }
}

// MARK: 4 and 7. Singleton

final class Singleton: Sendable {
    init() {}
}

/// What hand-written code keeps its singleton in: a stored `let` of an object it holds.
final class SingletonHolder: Sendable {
    let singleton = Singleton()
}

/// The hand-written singleton shared by threads: a global `let`.
let globalSingleton = Singleton()

// MARK: 5. Runtime argument

final class Greeter: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

// MARK: 6. Named registrations

protocol NamedService: AnyObject, Sendable {
    var index: Int { get }
}

final class NamedServiceImpl: NamedService {
    let index: Int
    init(index: Int) { self.index = index }
}
