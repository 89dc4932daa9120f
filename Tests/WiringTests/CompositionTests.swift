import Foundation
import Testing
import Wiring
import WiringTestHelpers

final class Engine {
    let fuel: String
    init(fuel: String) { self.fuel = fuel }
}

final class Car: Injectable {
    let engine: Engine
    init(resolver: Resolver) throws { engine = try resolver.resolve() }
}

final class Garage: Injectable {
    static let scope = Scope.container
    init(resolver: Resolver) throws {}
}

final class Radio {
    let station: String?
    init(station: String?) { self.station = station }
}

@Suite("Autowiring")
struct AutowiringTests {
    @Test func autoregisterResolvesEveryInitializerParameter() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "Auto") }
        let registration = container.autoregister(Owner.self, initializer: PetOwner.init)
        #expect(try container.resolve(Owner.self).pet.name == "Auto")
        #expect(registration.dependencies == [Dependency(key: ServiceKey(Animal.self))])
    }

    @Test func autoregisterTakesManyParametersAndRecordsThemInOrder() throws {
        final class Report {
            let engine: Engine, fuel: String, count: Int
            init(engine: Engine, fuel: String, count: Int) { (self.engine, self.fuel, self.count) = (engine, fuel, count) }
        }
        let container = Container()
        container.register(String.self) { _ in "diesel" }
        container.register(Int.self) { _ in 3 }
        container.autoregister(Engine.self, initializer: Engine.init)
        container.autoregister(Report.self, name: "weekly", initializer: Report.init).scope(.container)
        let report = try container.resolve(Report.self, name: "weekly")
        #expect(report.engine.fuel == "diesel")
        #expect(report.count == 3)
        #expect(try container.resolve(Report.self, name: "weekly") === report)
        let info = try #require(container.registration(for: ServiceKey(Report.self, name: "weekly")))
        #expect(info.dependencies?.map(\.description) == ["Engine", "String", "Int"])
        #expect(info.scope == .container)
    }

    @Test func optionalParametersResolveToNilWhenNothingIsRegistered() throws {
        let container = Container()
        container.autoregister(Radio.self, initializer: Radio.init)
        #expect(try container.resolve(Radio.self).station == nil)
        container.register(String.self) { _ in "jazz" }
        #expect(try container.resolve(Radio.self).station == "jazz")
        #expect(container.registration(for: ServiceKey(Radio.self))?.dependencies == [Dependency(key: ServiceKey(String.self), isOptional: true)])
    }

    @Test func anOptionalWhoseOwnDependencyIsMissingStillFails() throws {
        final class Tuner {
            init(frequency: Double) {}
        }
        final class Stereo {
            init(tuner: Tuner?) {}
        }
        let container = Container()
        container.autoregister(Tuner.self, initializer: Tuner.init)
        container.autoregister(Stereo.self, initializer: Stereo.init)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Stereo.self) }
        #expect(error.description.hasPrefix("""
            error: no registration for Double
              path: Stereo -> Tuner -> Double
            """))
    }

    @Test func aMissingParameterFailsWithThePath() throws {
        let container = Container()
        container.autoregister(Owner.self, initializer: PetOwner.init)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Owner.self) }
        #expect(error.path == [ServiceKey(Owner.self), ServiceKey(Animal.self)])
        #expect(error.summary == "no registration for Animal")
    }

    @Test func factoryRegistrationsHaveNoStaticDependencies() {
        let container = Container()
        let registration = container.register(Animal.self) { _ in Cat() }
        #expect(registration.dependencies == nil)
        #expect(container.registrations.map(\.key) == [ServiceKey(Animal.self)])
    }
}

@Suite("Providers and lazies")
struct ProviderTests {
    @Test func aProviderResolvesAfreshOnEachCallAndHonoursScope() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.transient)
        container.register(Engine.self) { _ in Engine(fuel: "x") }.scope(.container)
        let leaves = try container.resolve(Provider<Leaf>.self)
        let engines = try container.resolve(Provider<Engine>.self)
        #expect(try leaves() !== leaves())
        #expect(try engines() === engines())
    }

    @Test func aNamedProviderAndOneWithArguments() throws {
        let container = Container()
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        #expect(try container.resolve(Provider<Animal>.self, name: "mimi")().name == "Mimi")
        #expect(try container.resolve(Provider<Animal>.self)("Rex").name == "Rex")
    }

    @Test func aMissingServiceFailsWhenTheProviderIsCalledNotWhenInjected() throws {
        final class Screen {
            let makeFood: Provider<Food>
            init(makeFood: Provider<Food>) { self.makeFood = makeFood }
        }
        let container = Container()
        container.autoregister(Screen.self, initializer: Screen.init)
        let screen = try container.resolve(Screen.self)
        let error = try #require(throws: ResolutionError.self) { try screen.makeFood() }
        #expect(error.summary == "no registration for Food")
    }

    @Test func aProviderBreaksACycle() throws {
        final class Parent {
            let child: Child
            init(child: Child) { self.child = child }
        }
        final class Child {
            let parent: Provider<Parent>
            init(parent: Provider<Parent>) { self.parent = parent }
        }
        let container = Container()
        container.autoregister(Parent.self, initializer: Parent.init).scope(.container)
        container.autoregister(Child.self, initializer: Child.init)
        let parent = try container.resolve(Parent.self)
        #expect(try parent.child.parent() === parent)
    }

    @Test func aLazyResolvesOnceOnFirstUse() throws {
        let made = Counter()
        let container = Container()
        container.register(Leaf.self) { _ in made.increment(); return Leaf() }.scope(.transient)
        let lazy = try container.resolve(Lazy<Leaf>.self)
        #expect(made.value == 0)
        #expect(!lazy.isResolved)
        let first = try lazy.value
        #expect(try lazy() === first)
        #expect(made.value == 1)
    }

    /// A shared `Lazy` resolves its transient once, and a `Provider` of a singleton hands out
    /// one instance, however many threads use them at once: 8 threads, released together, in
    /// each of many fresh containers (`FactorySpeed.rounds`).
    @Test(arguments: FactorySpeed.allCases)
    func aLazyResolvesOnceAndAProvidersSingletonIsMadeOnceFromManyThreads(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let leavesMade = LockedCounter()
            let enginesMade = LockedCounter()
            let container = Container()
            container.register(Leaf.self) { _ in
                leavesMade.increment()
                speed.work()
                return Leaf()
            }.scope(.transient)
            container.register(Engine.self) { _ in
                enginesMade.increment()
                speed.work()
                return Engine(fuel: "x")
            }.scope(.container)
            let lazy = try container.resolve(Lazy<Leaf>.self)
            let engines = try container.resolve(Provider<Engine>.self)
            let leaves = IdentityCollector()
            let seenEngines = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(8) { index in
                do {
                    // Half use the Lazy first, half the Provider.
                    if index.isMultiple(of: 2) {
                        leaves.insert(try lazy.value)
                        seenEngines.insert(try engines())
                    } else {
                        seenEngines.insert(try engines())
                        leaves.insert(try lazy.value)
                    }
                } catch {
                    failures.increment()
                }
            }
            try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(leavesMade.value == 1, "round \(round): the Lazy made its Leaf \(leavesMade.value) times")
            try #require(leaves.distinctCount == 1, "round \(round): the Lazy gave \(leaves.distinctCount) different Leaves")
            try #require(enginesMade.value == 1, "round \(round): the singleton Engine was made \(enginesMade.value) times")
            try #require(
                seenEngines.distinctCount == 1, "round \(round): the Provider gave \(seenEngines.distinctCount) different Engines")
        }
    }
}

@Suite("Self-describing types")
struct InjectableTests {
    @Test func anInjectableTypeResolvesWithoutRegistration() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine(fuel: "electric") }
        let car = try container.resolve(Car.self)
        #expect(car.engine.fuel == "electric")
    }

    @Test func aRegistrationWins() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine(fuel: "petrol") }
        let registered = try Car(resolver: container)
        container.register(Car.self, instance: registered)
        #expect(try container.resolve(Car.self) === registered)
    }

    @Test func itsScopeIsGraphUnlessTheTypeSaysOtherwise() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine(fuel: "x") }
        #expect(try container.resolve(Car.self) !== container.resolve(Car.self))
        #expect(try container.resolve(Garage.self) === container.resolve(Garage.self))
    }

    @Test func itsMissingDependencyFailsWithThePath() throws {
        let container = Container()
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Car.self) }
        #expect(error.path == [ServiceKey(Car.self), ServiceKey(Engine.self)])
    }
}

@Suite("Property injection", .serialized)
struct PropertyInjectionTests {
    final class Screen {
        @Injected var engine: Engine
        @Injected(name: "mimi") var pet: Animal
        @LazyInjected var leaf: Leaf
    }

    struct UncheckedScreen: @unchecked Sendable {
        let value: Screen
    }

    func makeContainer(fuel: String) -> Container {
        let container = Container()
        container.register(Engine.self) { _ in Engine(fuel: fuel) }
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        container.register(Leaf.self) { _ in Leaf() }.scope(.container)
        return container
    }

    @Test func injectedResolvesFromTheTaskContainer() throws {
        let container = makeContainer(fuel: "task")
        let screen = Container.withCurrent(container) { Screen() }
        #expect(screen.engine.fuel == "task")
        #expect(screen.pet.name == "Mimi")
        #expect(!screen.$leaf.isResolved)
        #expect(screen.leaf === (try container.resolve(Leaf.self)))
    }

    @Test func lazyInjectedUsesTheContainerCurrentWhenTheOwnerWasMade() throws {
        let first = makeContainer(fuel: "first")
        let second = makeContainer(fuel: "second")
        let screen = Container.withCurrent(first) { Screen() }
        Container.withCurrent(second) {
            #expect(screen.leaf === (try? first.resolve(Leaf.self)))
        }
    }

    @Test func parallelTasksEachSeeTheirOwnContainer() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let container = makeContainer(fuel: "\(index)")
                    try await Container.withCurrent(container) {
                        try await Task.sleep(nanoseconds: 1_000_000)
                        let screen = Screen()
                        #expect(screen.engine.fuel == "\(index)")
                        #expect(screen.leaf === (try container.resolve(Leaf.self)))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A `@LazyInjected` property resolves its transient once however many threads read it at
    /// once: 8 threads, released together, on a fresh owner in each of many fresh containers
    /// (`FactorySpeed.rounds`).
    @Test(arguments: FactorySpeed.allCases)
    func lazyInjectedResolvesOnceFromManyThreads(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let made = LockedCounter()
            let container = makeContainer(fuel: "x")
            container.register(Leaf.self) { _ in
                made.increment()
                speed.work()
                return Leaf()
            }.scope(.transient)
            let screen = UncheckedScreen(value: Container.withCurrent(container) { Screen() })
            let seen = IdentityCollector()
            let finished = await raceThreadsAsync(8) { _ in
                seen.insert(screen.value.leaf)
            }
            try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
            try #require(made.value == 1, "round \(round): the property's Leaf was made \(made.value) times")
            try #require(seen.distinctCount == 1, "round \(round): the property gave \(seen.distinctCount) different Leaves")
        }
    }

    @Test func theSharedContainerIsTheFallback() throws {
        #expect(Container.current == nil)
        let container = makeContainer(fuel: "shared")
        Container.shared = container
        defer { Container.shared = nil }
        #expect(Screen().engine.fuel == "shared")
    }

    @Test func withNoContainerTheErrorSaysHowToBindOne() throws {
        final class Lonely {
            @Injected var engine: Engine
            @LazyInjected var leaf: Leaf
        }
        let lonely = Lonely()
        let error = try #require(throws: ResolutionError.self) { try lonely.$engine.get() }
        #expect(error.description == """
            error: no container to resolve Engine from
              path: Engine
              fix: bind a container for the task with `Container.withCurrent(container) { … }`, or set `Container.shared = container` once at launch.
            """)
        #expect(throws: ResolutionError.self) { try lonely.$leaf.value }
    }
}

@Suite("Eager singletons")
struct BootstrapTests {
    @Test func bootstrapMakesEveryEagerSingletonOnce() throws {
        let made = Counter()
        let container = Container()
        container.register(Engine.self) { _ in made.increment(); return Engine(fuel: "x") }.scope(.container).eager()
        container.register(Leaf.self) { _ in made.increment(); return Leaf() }.scope(.container)
        try container.bootstrap()
        #expect(made.value == 1)
        _ = try container.resolve(Engine.self)
        #expect(made.value == 1)
        #expect(container.registration(for: ServiceKey(Engine.self))?.isEager == true)
    }

    @Test func bootstrapReportsEveryFailureTogether() throws {
        let container = Container()
        container.register(Engine.self) { r in try Engine(fuel: r.resolve()) }.scope(.container).eager()
        container.register(Leaf.self) { _ -> Leaf in throw SampleError() }.scope(.container).eager()
        container.register(Animal.self) { _ in Cat() }.scope(.container).eager()
        let error = try #require(throws: BootstrapError.self) { try container.bootstrap() }
        #expect(error.failures.map(\.summary) == [
            "no registration for String",
            "the factory of Leaf threw: the disk is full",
        ])
        #expect(error.description.hasPrefix("bootstrap failed for 2 eager registrations:\n\nerror: no registration for String\n  path: Engine -> String"))
    }
}
