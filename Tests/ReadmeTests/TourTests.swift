import Testing
import Wiring
import WiringTestSupport

// The core's articles (once the README's "Tour of the core"), each example verbatim inside a test that checks what its
// comments say.

@Suite struct TourOfTheCore {
    @Test func registeringAndResolving() throws {
        let container = Container()

        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        container.register(Logger.self, instance: ConsoleLogger())        // a ready value, shared

        let cat = try container.resolve(Animal.self)
        let mimi = try container.resolve(Animal.self, name: "mimi")
        let mew = try container.resolve(Animal.self, arguments: "Mew")
        let animal: Animal = try container.resolve()                       // type inferred
        let everyAnimal = try container.resolveAll(Animal.self)            // every registration without arguments

        #expect(cat.name == "Cat")
        #expect(mimi.name == "Mimi")
        #expect(mew.name == "Mew")
        #expect(animal.name == "Cat")
        #expect(everyAnimal.map(\.name) == ["Cat", "Mimi"])
        #expect(try container.resolve(Logger.self) === container.resolve(Logger.self))
    }

    @Test func aCustomScopeLastsUntilItIsReset() throws {
        let container = Container()

        container.register(Session.self) { _ in Session() }.scope(.session)
        container.resetScope(.session)          // the next resolve makes a new Session

        let before = try container.resolve(Session.self)
        #expect(try container.resolve(Session.self) === before)
        container.resetScope(.session)
        #expect(try container.resolve(Session.self) !== before)
    }

    @Test func initCompletedSetsABackReference() throws {
        let container = Container()

        container.register(Parent.self) { _ in Parent() }
            .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
        container.register(Child.self) { r in try Child(parent: r.resolve(Parent.self)) }

        // or on the inner object, whose parent takes it in its initializer:
        container.register(Household.self) { r in try Household(pet: r.resolve(Pet.self)) }
        container.register(Pet.self) { _ in Pet() }
            .initCompleted { r, pet in pet.household = try r.resolve(Household.self) }

        let parent = try container.resolve(Parent.self)
        #expect(parent.child?.parent === parent)
        let household = try container.resolve(Household.self)
        #expect(household.pet.household === household)
    }

    @Test func hierarchyAndModules() throws {
        let container = Container()
        container.register(HTTPClient.self) { _ in URLSessionClient() }

        let child = Container(parent: container)        // sees the parent's registrations
        child.register(HTTPClient.self) { _ in StubClient() }

        struct NetworkModule: Module {
            func register(in container: Container) {
                container.register(HTTPClient.self) { _ in URLSessionClient() }.scope(.container)
            }
        }
        let app = Container(modules: [NetworkModule(), StorageModule()])   // later modules win
        app.apply([DebugModule()])                                          // onto an existing container

        #expect(try child.resolve(HTTPClient.self) is StubClient)
        #expect(try container.resolve(HTTPClient.self) is URLSessionClient)
        #expect(try app.resolve(HTTPClient.self) is StubClient)
        _ = try app.resolve(DiskStore.self)
    }

    @Test func autowiringRecordsTheInitializersParameters() throws {
        let container = Container()

        container.autoregister(Owner.self, initializer: PetOwner.init)
        let dependencies = container.registration(for: ServiceKey(Owner.self))?.dependencies   // [Animal]

        #expect(dependencies?.map(\.description) == ["Animal"])
    }

    @Test func providersAndLazies() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        container.register(Database.self) { _ in Database() }.scope(.container)

        let makeCat = try container.resolve(Provider<Animal>.self)
        let fresh = try makeCat()
        let named = try container.resolve(Provider<Animal>.self, name: "mimi")
        let lazyDatabase = try container.resolve(Lazy<Database>.self)
        let database = try lazyDatabase.value      // resolved now, once

        #expect(fresh !== (try makeCat()))
        #expect(try named().name == "Mimi")
        #expect(try lazyDatabase.value === database)
    }

    @Test func anInjectableTypeNeedsNoRegistration() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }

        final class Car: Injectable {
            let engine: Engine
            init(resolver: Resolver) throws { engine = try resolver.resolve() }
        }
        let car = try container.resolve(Car.self)

        #expect(container.registration(for: ServiceKey(Car.self)) == nil)
        _ = car.engine
    }

    @Test func oneRegistrationServesSeveralTypes() throws {
        let container = Container()

        container.register(ConsoleLogger.self) { _ in ConsoleLogger() }
            .scope(.container)
            .implements(Logging.self)          // the same instance for both types

        #expect(try container.resolve(Logging.self) === container.resolve(ConsoleLogger.self))
    }

    @Test func propertyInjectionUsesTheTasksContainer() throws {
        final class CheckoutScreen {
            @Injected var payments: Payments
            @LazyInjected var store: KeyValueStore
        }
        let container = makeAppContainer()
        container.register(KeyValueStore.self) { _ in MemoryStore() }
        let testContainer = TestContainer(base: container)

        let screen = Container.withCurrent(testContainer) { CheckoutScreen() }   // in a test

        #expect(screen.payments.network is LiveNetwork)
        #expect(screen.store is MemoryStore)
    }

    /// Compiled, never run: it sets the process-wide `Container.shared`, which other suites of
    /// this test process read.
    func propertyInjectionAtLaunch() {
        let testContainer = TestContainer(base: makeAppContainer())

        final class CheckoutScreen {
            @Injected var payments: Payments
            @Injected(name: "audit") var log: Logger
            @LazyInjected var store: KeyValueStore
        }

        Container.shared = makeAppContainer()                                    // at launch
        let screen = Container.withCurrent(testContainer) { CheckoutScreen() }   // in a test

        _ = screen
    }

    @Test func eagerSingletonsAreMadeByBootstrap() throws {
        let container = Container()

        container.register(Database.self) { _ in try SQLiteDatabase.open() }
            .scope(.container)
            .eager()
        try container.bootstrap()     // makes every eager singleton now; reports every failure at once

        #expect(try container.resolve(Database.self) is SQLiteDatabase)
    }

    @MainActor
    @Test func asyncAndMainActorFactories() async throws {
        let container = makeAppContainer()
        container.register(DatabaseURL.self) { _ in DatabaseURL(path: "shop.sqlite") }

        container.registerAsync(Database.self) { r in
            try await Database.connect(to: r.resolve(DatabaseURL.self))
        }.scope(.container)
        let database = try await container.async.resolve(Database.self)

        container.registerMainActor(CheckoutViewModel.self) { r in
            try CheckoutViewModel(cart: r.resolve())
        }
        let model = try container.resolve(CheckoutViewModel.self)              // from @MainActor code
        let elsewhere = try await container.async.resolve(CheckoutViewModel.self)  // from anywhere

        #expect(try await container.async.resolve(Database.self) === database)
        #expect(model !== elsewhere)
    }
}
