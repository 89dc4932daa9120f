import Swinject
import Wiring

// Both libraries export `Container` (and `Resolver`); these names keep them apart.
typealias WiringContainer = Wiring.Container
typealias SwinjectContainer = Swinject.Container

/// The ways of doing the same thing that a scenario compares, in the order of `variantNames`.
struct Variants {
    var handWritten: Body
    var wiring: Body
    var swinject: Body
    /// `nil` where the scenario has no meaningful swift-dependencies counterpart: the table says
    /// "n/a". The mappings are described in `SwiftDependenciesScenarios.swift`.
    var swiftDependencies: Body?

    var all: [Body?] { [handWritten, wiring, swinject, swiftDependencies] }
}

/// One row of the table.
struct Scenario {
    let name: String
    /// Threads resolving at once; ns/op is then wall time over the resolves of all threads.
    var threads = 1
    /// Builds the containers and the closures to time. Run only when the scenario is selected.
    let setUp: () throws -> Variants
    /// Checks one variant before it is timed: that it makes what the scenario says (sharing,
    /// new or same instances), so the variants are known to do equivalent work.
    let check: (Body) throws -> Bool
}

/// Every scenario, in the order of the table.
func allScenarios() -> [Scenario] {
    [
        transientNoDependencies(),
        transientChain(),
        autowiredChain(),
        tenNodeGraph(),
        cachedSingleton(),
        oneRuntimeArgument(),
        namedRegistrations(count: 10),
        namedRegistrations(count: 10_000),
        singletonFromTwoThreads(),
    ]
}

// MARK: Checks

/// Two calls give two new instances of `type`.
private func makesNewInstances<Object: AnyObject>(of type: Object.Type) -> (Body) throws -> Bool {
    { body in
        let first = try body()
        let second = try body()
        return first is Object && second is Object && first !== second
    }
}

/// Two calls give the same instance of `type`.
private func returnsSameInstance<Object: AnyObject>(of type: Object.Type) -> (Body) throws -> Bool {
    { body in
        let first = try body()
        let second = try body()
        return first is Object && first === second
    }
}

// MARK: 1

private func transientNoDependencies() -> Scenario {
    Scenario(
        name: "transient, no dependencies",
        setUp: {
            let wiring = WiringContainer()
            wiring.register(Leaf.self) { _ in Leaf() }.scope(.transient)

            let swinject = SwinjectContainer()
            swinject.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)

            return Variants(
                handWritten: { Leaf() },
                wiring: { try wiring.resolve(Leaf.self) },
                swinject: { swinject.resolve(Leaf.self)! },
                // A `@Dependency` factory client: `model.leafFactory.make()`.
                swiftDependencies: SwiftDependenciesBodies.leaf())
        },
        check: makesNewInstances(of: Leaf.self))
}

// MARK: 2

private func transientChain() -> Scenario {
    Scenario(
        name: "transient chain A(B(C))",
        setUp: {
            let wiring = makeChain()

            let swinject = SwinjectContainer()
            swinject.register(ChainC.self) { _ in ChainC() }.inObjectScope(.transient)
            swinject.register(ChainB.self) { r in ChainB(c: r.resolve(ChainC.self)!) }.inObjectScope(.transient)
            swinject.register(ChainA.self) { r in ChainA(b: r.resolve(ChainB.self)!) }.inObjectScope(.transient)

            return Variants(
                handWritten: { ChainA(b: ChainB(c: ChainC())) },
                wiring: { try wiring.resolve(ChainA.self) },
                swinject: { swinject.resolve(ChainA.self)! },
                // Three factory clients, each reading the next through `@Dependency`.
                swiftDependencies: SwiftDependenciesBodies.chain())
        },
        check: { body in
            guard try makesNewInstances(of: ChainA.self)(body) else { return false }
            let first = try body() as? ChainA
            let second = try body() as? ChainA
            return first?.b.c !== second?.b.c
        })
}

/// The chain again, registered with `autoregister`: compare its Wiring column with the
/// factory-registered chain above (the goal is within 10%).
private func autowiredChain() -> Scenario {
    Scenario(
        name: "autowired chain A(B(C))",
        setUp: {
            let wiring = WiringContainer()
            wiring.autoregister(ChainC.self, initializer: ChainC.init).scope(.transient)
            wiring.autoregister(ChainB.self, initializer: ChainB.init).scope(.transient)
            wiring.autoregister(ChainA.self, initializer: ChainA.init).scope(.transient)

            let swinject = SwinjectContainer()
            swinject.register(ChainC.self) { _ in ChainC() }.inObjectScope(.transient)
            swinject.register(ChainB.self) { r in ChainB(c: r.resolve(ChainC.self)!) }.inObjectScope(.transient)
            swinject.register(ChainA.self) { r in ChainA(b: r.resolve(ChainB.self)!) }.inObjectScope(.transient)

            return Variants(
                handWritten: { ChainA(b: ChainB(c: ChainC())) },
                wiring: { try wiring.resolve(ChainA.self) },
                swinject: { swinject.resolve(ChainA.self)! },
                // No autowiring in swift-dependencies: the same factory clients as the chain above,
                // as Swinject's column uses its factory registrations.
                swiftDependencies: SwiftDependenciesBodies.chain())
        },
        check: makesNewInstances(of: ChainA.self))
}

// MARK: 3

private func tenNodeGraph() -> Scenario {
    Scenario(
        name: "10-node graph, graph scope, shared nodes",
        setUp: {
            // Default scope in both: `.graph`, one instance of each type per top-level resolve.
            let wiring = makeTenNodeGraph()

            let swinject = SwinjectContainer()
            swinject.register(AppConfig.self) { _ in AppConfig() }
            swinject.register(AppLogger.self) { r in AppLogger(config: r.resolve(AppConfig.self)!) }
            swinject.register(Database.self) { r in
                Database(config: r.resolve(AppConfig.self)!, logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(Cache.self) { r in
                Cache(config: r.resolve(AppConfig.self)!, logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(HTTPClient.self) { r in
                HTTPClient(config: r.resolve(AppConfig.self)!, logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(UserRepository.self) { r in
                UserRepository(
                    database: r.resolve(Database.self)!, cache: r.resolve(Cache.self)!,
                    logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(OrderRepository.self) { r in
                OrderRepository(
                    database: r.resolve(Database.self)!, http: r.resolve(HTTPClient.self)!,
                    logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(UserService.self) { r in
                UserService(users: r.resolve(UserRepository.self)!, logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(OrderService.self) { r in
                OrderService(
                    orders: r.resolve(OrderRepository.self)!, users: r.resolve(UserRepository.self)!,
                    logger: r.resolve(AppLogger.self)!)
            }
            swinject.register(AppRoot.self) { r in
                AppRoot(
                    userService: r.resolve(UserService.self)!, orderService: r.resolve(OrderService.self)!,
                    http: r.resolve(HTTPClient.self)!, config: r.resolve(AppConfig.self)!)
            }

            return Variants(
                handWritten: {
                    let config = AppConfig()
                    let logger = AppLogger(config: config)
                    let database = Database(config: config, logger: logger)
                    let cache = Cache(config: config, logger: logger)
                    let http = HTTPClient(config: config, logger: logger)
                    let users = UserRepository(database: database, cache: cache, logger: logger)
                    let orders = OrderRepository(database: database, http: http, logger: logger)
                    return AppRoot(
                        userService: UserService(users: users, logger: logger),
                        orderService: OrderService(orders: orders, users: users, logger: logger),
                        http: http, config: config)
                },
                wiring: { try wiring.resolve(AppRoot.self) },
                swinject: { swinject.resolve(AppRoot.self)! },
                // n/a: swift-dependencies has no graph scope (instances shared within one
                // resolution, new for the next); building such a graph is hand-written code.
                swiftDependencies: nil)
        },
        check: { body in
            guard let first = try body() as? AppRoot, let second = try body() as? AppRoot else { return false }
            // Shared within one resolve, new for the next one.
            return first.sharesNodes && second.sharesNodes && first.config !== second.config
                && first.userService.logger !== second.userService.logger
        })
}

// MARK: 4

private func cachedSingleton() -> Scenario {
    Scenario(
        name: "cached container-scope singleton",
        setUp: {
            let holder = SingletonHolder()

            let wiring = WiringContainer()
            wiring.register(Singleton.self) { _ in Singleton() }.scope(.container)
            _ = try wiring.resolve(Singleton.self)

            let swinject = SwinjectContainer()
            swinject.register(Singleton.self) { _ in Singleton() }.inObjectScope(.container)
            _ = swinject.resolve(Singleton.self)!

            return Variants(
                handWritten: { holder.singleton },
                wiring: { try wiring.resolve(Singleton.self) },
                swinject: { swinject.resolve(Singleton.self)! },
                // A `@Dependency` read of a live value, which `DependencyValues` caches.
                swiftDependencies: SwiftDependenciesBodies.singleton())
        },
        check: returnsSameInstance(of: Singleton.self))
}

// MARK: 5

private func oneRuntimeArgument() -> Scenario {
    Scenario(
        name: "one runtime argument",
        setUp: {
            let name = "x"

            // Wiring makes a registration with arguments `.transient`; Swinject is told to.
            let wiring = WiringContainer()
            wiring.register(Greeter.self) { (_, name: String) in Greeter(name: name) }

            let swinject = SwinjectContainer()
            swinject.register(Greeter.self) { (_, name: String) in Greeter(name: name) }.inObjectScope(.transient)

            return Variants(
                handWritten: { Greeter(name: name) },
                wiring: { try wiring.resolve(Greeter.self, arguments: name) },
                swinject: { swinject.resolve(Greeter.self, argument: name)! },
                // A factory client whose endpoint takes the argument: `model.greeterFactory.make(name)`.
                swiftDependencies: SwiftDependenciesBodies.greeter(name: name))
        },
        check: { body in
            try makesNewInstances(of: Greeter.self)(body) && (try body() as? Greeter)?.name == "x"
        })
}

// MARK: 6

private func namedRegistrations(count: Int) -> Scenario {
    let middle = count / 2
    return Scenario(
        name: "one of \(count.formatted(thousandsSeparator: ",")) named registrations",
        setUp: {
            // Transient in both, so the row shows the cost of finding the registration.
            let name = "service-\(middle)"

            let wiring = WiringContainer()
            for index in 0..<count {
                wiring.register((any NamedService).self, name: "service-\(index)") { _ in
                    NamedServiceImpl(index: index)
                }
                .scope(.transient)
            }

            let swinject = SwinjectContainer()
            for index in 0..<count {
                swinject.register((any NamedService).self, name: "service-\(index)") { _ in
                    NamedServiceImpl(index: index)
                }
                .inObjectScope(.transient)
            }

            return Variants(
                handWritten: { NamedServiceImpl(index: middle) },
                wiring: { try wiring.resolve((any NamedService).self, name: name) },
                swinject: { swinject.resolve((any NamedService).self, name: name)! },
                // n/a: swift-dependencies finds a dependency by its key type, never by a runtime name.
                swiftDependencies: nil)
        },
        check: { body in
            try makesNewInstances(of: NamedServiceImpl.self)(body)
                && (try body() as? NamedServiceImpl)?.index == middle
        })
}

// MARK: 7

private func singletonFromTwoThreads() -> Scenario {
    Scenario(
        name: "singleton from 2 threads",
        threads: 2,
        setUp: {
            let wiring = WiringContainer()
            wiring.register(Singleton.self) { _ in Singleton() }.scope(.container)
            _ = try wiring.resolve(Singleton.self)

            // A Swinject container may only be used from several threads through `synchronize()`.
            let swinjectContainer = SwinjectContainer()
            swinjectContainer.register(Singleton.self) { _ in Singleton() }.inObjectScope(.container)
            let swinject = swinjectContainer.synchronize()
            _ = swinject.resolve(Singleton.self)!

            return Variants(
                handWritten: { globalSingleton },
                wiring: { try wiring.resolve(Singleton.self) },
                swinject: { swinject.resolve(Singleton.self)! },
                // As in 4; `DependencyValues` and its cache are safe to read from several threads.
                swiftDependencies: SwiftDependenciesBodies.singleton())
        },
        check: returnsSameInstance(of: Singleton.self))
}

extension Int {
    /// `10000` as `10,000`, without Foundation's locale-dependent formatters.
    func formatted(thousandsSeparator separator: String) -> String {
        let digits = String(magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (self < 0 ? "-" : "") + groups.joined(separator: separator)
    }
}

/// The transient chain's registrations, shared with the TestContainer scenarios.
func makeChain() -> WiringContainer {
    let wiring = WiringContainer()
    wiring.register(ChainC.self) { _ in ChainC() }.scope(.transient)
    wiring.register(ChainB.self) { r in try ChainB(c: r.resolve(ChainC.self)) }.scope(.transient)
    wiring.register(ChainA.self) { r in try ChainA(b: r.resolve(ChainB.self)) }.scope(.transient)
    return wiring
}

/// The 10-node graph's registrations, shared with the TestContainer scenarios.
func makeTenNodeGraph() -> WiringContainer {
    let wiring = WiringContainer()
    wiring.register(AppConfig.self) { _ in AppConfig() }
    wiring.register(AppLogger.self) { r in try AppLogger(config: r.resolve(AppConfig.self)) }
    wiring.register(Database.self) { r in
        try Database(config: r.resolve(AppConfig.self), logger: r.resolve(AppLogger.self))
    }
    wiring.register(Cache.self) { r in
        try Cache(config: r.resolve(AppConfig.self), logger: r.resolve(AppLogger.self))
    }
    wiring.register(HTTPClient.self) { r in
        try HTTPClient(config: r.resolve(AppConfig.self), logger: r.resolve(AppLogger.self))
    }
    wiring.register(UserRepository.self) { r in
        try UserRepository(
            database: r.resolve(Database.self), cache: r.resolve(Cache.self), logger: r.resolve(AppLogger.self))
    }
    wiring.register(OrderRepository.self) { r in
        try OrderRepository(
            database: r.resolve(Database.self), http: r.resolve(HTTPClient.self),
            logger: r.resolve(AppLogger.self))
    }
    wiring.register(UserService.self) { r in
        try UserService(users: r.resolve(UserRepository.self), logger: r.resolve(AppLogger.self))
    }
    wiring.register(OrderService.self) { r in
        try OrderService(
            orders: r.resolve(OrderRepository.self), users: r.resolve(UserRepository.self),
            logger: r.resolve(AppLogger.self))
    }
    wiring.register(AppRoot.self) { r in
        try AppRoot(
            userService: r.resolve(UserService.self), orderService: r.resolve(OrderService.self),
            http: r.resolve(HTTPClient.self), config: r.resolve(AppConfig.self))
    }
    return wiring
}
