import Foundation
import Testing
import Wiring

// What a Swinject app relies on beyond the basics: optional services, forwarding and lazies
// with runtime arguments, a container's default scope, registration behaviors, a module hook
// after loading and resetting one type's instances.

final class Hound: Animal {
    let name: String
    let age: Int

    init(name: String = "Hound", age: Int = 1) {
        self.name = name
        self.age = age
    }
}

final class Kennel {
    let dog: Hound?
    init(dog: Hound?) { self.dog = dog }
}

final class Bone {}

final class Chewer {
    let bone: Bone
    init(bone: Bone) { self.bone = bone }
}

final class Walker {
    let dog: Lazy<Hound>
    init(dog: Lazy<Hound>) { self.dog = dog }
}

/// Resolvable without a registration.
final class Collar: Injectable {
    init(resolver: any Resolver) throws {}
}

/// Resolvable without a registration, kept in a custom scope.
final class Leash: Injectable {
    static var scope: Scope { .walk }
    init(resolver: any Resolver) throws {}
}

extension Scope { static let walk = Scope("walk") }

protocol Screen: AnyObject {}
final class ProfileScreen: Screen {}
final class SettingsScreen: Screen {}

/// Collects what it is told, from any thread.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

@Suite("Optional services")
struct OptionalServiceTests {
    @Test func anOptionalIsTheServiceWhenItIsRegistered() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound(name: "Rex") }
        #expect(try container.resolve(Optional<Hound>.self)?.name == "Rex")
        #expect(try container.resolve(Hound?.self)?.name == "Rex")
    }

    @Test func anOptionalIsNilWhenNothingIsRegistered() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { _ in Hound(name: "Rex") }
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }
        #expect(try container.resolve(Hound?.self) == nil)
        #expect(try container.resolve(Optional<Bone>.self) == nil)
    }

    @Test func aNamedOptional() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { _ in Hound(name: "Rex") }
        #expect(try container.resolve(Hound?.self, name: "rex")?.name == "Rex")
        #expect(try container.resolve(Hound?.self, name: "fido") == nil)
    }

    @Test func anOptionalWithRuntimeArguments() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String, age: Int) in Hound(name: name, age: age) }
        let rex = try #require(try container.resolve(Hound?.self, arguments: "Rex", 3))
        #expect(rex.name == "Rex")
        #expect(rex.age == 3)
        #expect(try container.resolve(Hound?.self, arguments: "Rex") == nil)
        #expect(try container.resolve(Hound?.self, name: "other", arguments: "Rex", 3) == nil)
    }

    @Test func anOptionalOfAForwardedType() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound(name: "Rex") }.scope(.container).implements(Animal.self)
        let animal = try #require(try container.resolve(Animal?.self))
        #expect(animal === (try container.resolve(Hound.self)))
        #expect(try container.resolve(Food?.self) == nil)
    }

    @Test func aFactoryResolvesAnOptionalDependency() throws {
        let container = Container()
        container.register(Kennel.self) { r in try Kennel(dog: r.resolve(Hound?.self)) }
        #expect(try container.resolve(Kennel.self).dog == nil)

        container.register(Hound.self) { _ in Hound(name: "Rex") }
        #expect(try container.resolve(Kennel.self).dog?.name == "Rex")
    }

    @Test func aFailingFactoryStillThrows() throws {
        let container = Container()
        container.register(Hound.self) { _ -> Hound in throw SampleError() }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Hound?.self) }
        #expect(error.identifier == "factory-failed")
        #expect(error.underlyingError is SampleError)
    }

    @Test func aMissingDependencyDeeperDownIsAnError() throws {
        let container = Container()
        container.register(Chewer.self) { r in try Chewer(bone: r.resolve(Bone.self)) }
        container.register(Kennel.self) { r in
            _ = try r.resolve(Chewer?.self)
            return Kennel(dog: nil)
        }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Kennel.self) }
        #expect(error.identifier == "not-registered")
        #expect(error.key == ServiceKey(Bone.self))
        #expect(error.path.last == ServiceKey(Bone.self))
        #expect(error.path.first == ServiceKey(Kennel.self))
        #expect(error.path.contains(ServiceKey(Chewer.self)))
    }

    @Test func injectableTypesProvidersAndLaziesCountAsRegistered() throws {
        let container = Container()
        #expect(try container.resolve(Collar?.self) != nil)
        #expect(try container.resolve(Provider<Bone>?.self) != nil)
        #expect(try container.resolve(Lazy<Bone>?.self) != nil)
    }

    @Test func theWrappedScopeIsHonoured() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound() }.scope(.container)
        container.register(Bone.self) { _ in Bone() }
        container.register(Chewer.self) { r in
            let bone = try r.resolve(Bone.self)
            #expect(try r.resolve(Bone?.self) === bone)          // .graph: the same within one resolve
            return Chewer(bone: bone)
        }
        #expect(try container.resolve(Hound?.self) === (try container.resolve(Hound.self)))
        _ = try container.resolve(Chewer.self)
    }

    @Test func aRegistrationOfTheOptionalItselfWins() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound(name: "Rex") }
        container.register(Hound?.self) { _ in nil }
        #expect(try container.resolve(Hound?.self) == nil)
    }

    @Test func aChildSeesItsParentsRegistration() throws {
        let parent = Container()
        parent.register(Hound.self) { _ in Hound(name: "Rex") }
        let child = Container(parent: parent)
        #expect(try child.resolve(Hound?.self)?.name == "Rex")
    }

    @Test func anOptionalResolvesAsynchronouslyToo() async throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound(name: "Rex") }
        #expect(try await container.async.resolve(Hound?.self)?.name == "Rex")
        #expect(try await container.async.resolve(Bone?.self) == nil)
    }
}

@Suite("implements on registrations with runtime arguments")
struct ForwardingWithArgumentsTests {
    @Test func theForwardedTypeTakesTheSameArguments() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String, age: Int) in Hound(name: name, age: age) }
            .implements(Animal.self)
        let animal = try container.resolve(Animal.self, arguments: "Rex", 3)
        let hound = try #require(animal as? Hound)
        #expect(hound.name == "Rex")
        #expect(hound.age == 3)
        #expect(container.registeredKeys.contains(ServiceKey(Animal.self, arguments: String.self, Int.self)))
    }

    @Test func aNamedForwardWithArguments() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { (_, age: Int) in Hound(name: "Rex", age: age) }
            .implements(Animal.self, name: "pet")
        #expect(try container.resolve(Animal.self, name: "pet", arguments: 4).name == "Rex")
    }

    @Test func aFactoryResolvesTheForwardedTypeWithArguments() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }.implements(Animal.self)
        container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self, arguments: "Fido")) }
        #expect(try container.resolve(Owner.self).pet.name == "Fido")
    }

    @Test func aKeptInstanceIsSharedByBothTypes() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }
            .scope(.container)
            .implements(Animal.self)
        let hound = try container.resolve(Hound.self, arguments: "Rex")
        #expect(try container.resolve(Animal.self, arguments: "Rex") === hound)
    }

    @Test func otherArgumentsAreANearMiss() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }.implements(Animal.self)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self, arguments: 3) }
        #expect(error.identifier == "not-registered")
        #expect(error.description.contains("Animal (arguments: String)  at WiringTests/SwinjectParityTests.swift:"))
        #expect(error.fix == "Animal is registered to take the runtime arguments (String), and this resolve passes (Int): resolve it as registered, as in `try container.resolve(Animal.self, arguments: <String>)`.")
    }

    @Test func aFailureNamesBothKeysOnThePath() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) -> Hound in throw SampleError() }.implements(Animal.self)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self, arguments: "Rex") }
        #expect(error.identifier == "factory-failed")
        #expect(error.path == [
            ServiceKey(Animal.self, arguments: String.self), ServiceKey(Hound.self, arguments: String.self),
        ])
    }
}

@Suite("Lazy with runtime arguments")
struct LazyWithArgumentsTests {
    @Test func resolvesWithTheArgumentsOnFirstUse() throws {
        let container = Container()
        let made = Counter()
        container.register(Hound.self) { (_, name: String, age: Int) in
            made.increment()
            return Hound(name: name, age: age)
        }
        let lazy = try container.resolve(Lazy<Hound>.self, arguments: "Rex", 3)
        #expect(!lazy.isResolved)
        #expect(made.value == 0)
        let rex = try lazy.value
        #expect(rex.name == "Rex")
        #expect(rex.age == 3)
        #expect(try lazy.value === rex)
        #expect(made.value == 1)
    }

    @Test func aNamedLazyWithArguments() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { (_, age: Int) in Hound(name: "Rex", age: age) }
        let lazy = try container.resolve(Lazy<Hound>.self, name: "rex", arguments: 5)
        #expect(try lazy().age == 5)
    }

    @Test func aFactoryInjectsOne() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }
        container.register(Walker.self) { r in try Walker(dog: r.resolve(Lazy<Hound>.self, arguments: "Fido")) }
        let walker = try container.resolve(Walker.self)
        #expect(try walker.dog.value.name == "Fido")
    }

    @Test func madeByHand() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String, age: Int) in Hound(name: name, age: age) }
        let rex = Lazy<Hound>(container, arguments: "Rex", 3)
        #expect(try rex.value.age == 3)
    }

    @Test func aProviderAndALazyMadeByHandWithANameResolveFromTheirResolver() throws {
        let made = Counter()
        let container = Container()
        container.register(Hound.self) { _ in Hound(name: "Plain") }
        container.register(Hound.self, name: "rex") { _ in
            made.increment()
            return Hound(name: "Rex")
        }

        let provider = Provider<Hound>(container, name: "rex")
        #expect(provider.name == "rex")
        #expect(made.value == 0, "nothing resolved until called")
        let first = try provider()
        let second = try provider()
        #expect(first.name == "Rex")
        #expect(second !== first, "each call a new resolve")
        #expect(made.value == 2)
        #expect(try Provider<Hound>(container)().name == "Plain")
        #expect(Provider<Hound>(container).name == nil)

        let lazy = Lazy<Hound>(container, name: "rex")
        #expect(!lazy.isResolved)
        #expect(made.value == 2, "nothing resolved until used")
        let value = try lazy.value
        #expect(value.name == "Rex")
        #expect(try lazy() === value, "resolved once, then kept")
        #expect(made.value == 3)
        #expect(try Lazy<Hound>(container).value.name == "Plain")

        // A name nothing is registered under fails on use, naming it.
        let error = try #require(throws: ResolutionError.self) { try Lazy<Hound>(container, name: "fido").value }
        #expect(error.identifier == "not-registered")
        #expect(error.key == ServiceKey(Hound.self, name: "fido"))
        #expect(throws: ResolutionError.self) { try Provider<Hound>(container, name: "fido")() }
    }

    @Test func aMissingRegistrationFailsOnUseNamingTheService() throws {
        let container = Container()
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }
        let lazy = try container.resolve(Lazy<Hound>.self, arguments: true)
        let error = try #require(throws: ResolutionError.self) { try lazy.value }
        #expect(error.identifier == "not-registered")
        #expect(error.key == ServiceKey(Hound.self, arguments: Bool.self))
        #expect(error.description == """
            error: no registration for Hound (arguments: Bool)
              path: Hound (arguments: Bool)
              registered for Hound:
                Hound (arguments: String)  at WiringTests/SwinjectParityTests.swift:\(container.registrations[0].site.line)
              fix: Hound is registered to take the runtime arguments (String), and this resolve passes (Bool): resolve it as registered, as in `try container.resolve(Hound.self, arguments: <String>)`.
            """)
    }

    @Test func aProviderWithArgumentsSaysToPassThemWhenCalling() throws {
        let container = Container()
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(Provider<Hound>.self, arguments: "Rex", 3)
        }
        #expect(error.fix == """
            a `Provider` takes runtime arguments when it is called, not when it is resolved: resolve `Provider<Hound>` \
            without them and call it with them, `try provider(…)`, which resolves Hound (arguments: String, Int).
            """)
    }
}

@Suite("A container's default scope")
struct DefaultScopeTests {
    @Test func registrationsWithoutAScopeTakeTheDefault() throws {
        let container = Container(defaultScope: .container)
        container.register(Hound.self) { _ in Hound() }
        container.register(Bone.self) { _ in Bone() }.scope(.transient)
        container.autoregister(Chewer.self, initializer: Chewer.init)
        container.register(Hound.self) { (_, name: String) in Hound(name: name) }

        #expect(container.defaultScope == .container)
        #expect(try container.resolve(Hound.self) === (try container.resolve(Hound.self)))
        #expect(try container.resolve(Bone.self) !== (try container.resolve(Bone.self)))
        #expect(try container.resolve(Chewer.self) === (try container.resolve(Chewer.self)))
        #expect(try container.resolve(Hound.self, arguments: "Rex") !== (try container.resolve(Hound.self, arguments: "Rex")))
        #expect(container.registrations.map(\.scope) == [.container, .transient, .container, .transient])
    }

    @Test func withoutOneItIsGraph() {
        #expect(Container().defaultScope == .graph)
        #expect(Container(parent: Container()).defaultScope == .graph)
    }

    @Test func childrenInheritItUnlessTheySetTheirOwn() {
        let parent = Container(defaultScope: .container)
        #expect(Container(parent: parent).defaultScope == .container)
        #expect(Container(parent: parent, defaultScope: .weak).defaultScope == .weak)
        #expect(Container(parent: Container(parent: parent)).defaultScope == .container)
    }

    @Test func modulesRegisterWithIt() throws {
        struct Bones: Module {
            func register(in container: Container) {
                container.register(Bone.self) { _ in Bone() }
            }
        }
        let container = Container(defaultScope: .container, modules: [Bones()])
        #expect(try container.resolve(Bone.self) === (try container.resolve(Bone.self)))
        let child = Container(parent: container, defaultScope: .transient, modules: [Bones()])
        #expect(try child.resolve(Bone.self) !== (try child.resolve(Bone.self)))
    }

    @Test func asyncAndMainActorRegistrationsTakeItToo() {
        let container = Container(defaultScope: .weak)
        container.registerAsync(Hound.self) { _ in Hound() }
        container.registerMainActor(Bone.self) { _ in Bone() }
        container.register(Food.self, instance: Fish())
        #expect(container.registrations.map(\.scope) == [.weak, .weak, .container])
    }

    @Test func aForwardedTypeFollowsItsTarget() throws {
        let container = Container(defaultScope: .container)
        container.register(Hound.self) { _ in Hound() }.implements(Animal.self)
        #expect(try container.resolve(Animal.self) === (try container.resolve(Hound.self)))
        #expect(container.registration(for: ServiceKey(Animal.self))?.scope == .transient)
    }
}

@Suite("Registration behaviors")
struct RegistrationBehaviorTests {
    @Test func anObserverIsToldOfEachRegistrationAndEachChange() {
        let container = Container()
        let seen = Recorder<RegistrationInfo>()
        container.register(Bone.self) { _ in Bone() }   // before observing: not reported
        container.observeRegistrations { info in seen.append(info) }
        container.register(Hound.self) { _ in Hound() }
            .scope(.container)
        container.register(Hound.self, name: "rex") { (_, age: Int) in Hound(age: age) }

        #expect(seen.values.map(\.description) == [
            "Hound [.graph] at WiringTests/SwinjectParityTests.swift:\(seen.values[0].site.line)",
            "Hound [.container] at WiringTests/SwinjectParityTests.swift:\(seen.values[0].site.line)",
            "Hound (name: \"rex\", arguments: Int) [.transient] at WiringTests/SwinjectParityTests.swift:\(seen.values[2].site.line)",
        ])
        #expect(seen.values[2].site.line == seen.values[0].site.line + 2)
    }

    @Test func aBehaviorCanForwardEveryViewModel() throws {
        struct ServeScreens: RegistrationBehavior {
            func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
                guard Service.self is any Screen.Type else { return }
                registration.implements(Screen.self, name: info.key.typeDescription)
            }
        }
        let container = Container(behaviors: [ServeScreens()])
        container.register(ProfileScreen.self) { _ in ProfileScreen() }
        container.register(SettingsScreen.self) { _ in SettingsScreen() }
        container.register(Bone.self) { _ in Bone() }

        #expect(try container.resolve(Screen.self, name: "ProfileScreen") is ProfileScreen)
        #expect(try container.resolve(Screen.self, name: "SettingsScreen") is SettingsScreen)
        #expect(try container.resolveAll(Screen.self).count == 2)
    }

    @Test func behaviorsGivenToTheInitializerSeeTheModules() {
        struct Bones: Module {
            func register(in container: Container) {
                container.register(Bone.self) { _ in Bone() }
                container.register(Hound.self) { _ in Hound() }.implements(Animal.self)
            }
        }
        struct Catalogue: RegistrationBehavior {
            let keys: Recorder<ServiceKey>
            func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
                keys.append(info.key)
            }
        }
        let keys = Recorder<ServiceKey>()
        _ = Container(behaviors: [Catalogue(keys: keys)], modules: [Bones()])
        #expect(keys.values == [ServiceKey(Bone.self), ServiceKey(Hound.self), ServiceKey(Animal.self)])
    }

    @Test func aBehaviorAddedLaterIsToldOnlyOfLaterRegistrationsOfItsContainer() throws {
        struct Catalogue: RegistrationBehavior {
            let added: Recorder<String>
            let updated: Recorder<String>
            func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
                added.append("\(info.key) [\(info.scope)]")
            }
            func container(_ container: Container, didUpdate info: RegistrationInfo) {
                updated.append("\(info.key) [\(info.scope)]")
            }
        }
        let container = Container()
        container.register(Bone.self) { _ in Bone() }.scope(.container)
        container.register(Hound.self) { _ in Hound() }
        let child = Container(parent: container)
        let added = Recorder<String>()
        let updated = Recorder<String>()
        container.addBehavior(Catalogue(added: added, updated: updated))

        #expect(added.values.isEmpty, "not told of the registrations that were there before")
        container.register(Hound.self, name: "rex") { (_, age: Int) in Hound(age: age) }.scope(.container)
        child.register(Chewer.self) { r in try Chewer(bone: r.resolve()) }
        #expect(added.values == [#"Hound (name: "rex", arguments: Int) [.transient]"#], "a child's are not its own")
        #expect(updated.values == [#"Hound (name: "rex", arguments: Int) [.container]"#])
        // The registrations made before still resolve as they were.
        #expect(try container.resolve(Bone.self) === container.resolve(Bone.self))
        #expect(try container.resolve(Hound.self, name: "rex", arguments: 4).age == 4)
    }

    @Test func itRunsOnTheRegisteringThreadOutsideTheLock() throws {
        let container = Container()
        container.register(Bone.self) { _ in Bone() }
        let threads = Recorder<pthread_t>()
        container.observeRegistrations { [weak container] info in
            // Outside the container's lock: it may resolve and register.
            _ = try? container?.resolve(Bone.self)
            if info.key.name == nil { container?.register(Hound.self, name: "seen") { _ in Hound() } }
            threads.append(pthread_self())
        }
        let registering = Recorder<pthread_t>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            registering.append(pthread_self())
            container.register(Hound.self) { _ in Hound() }
            done.signal()
        }
        thread.start()
        try #require(done.wait(timeout: .now() + 30) == .success, "the registering thread did not finish within 30 s")
        // Hound, then the named Hound it registered, reported before the outer call returned.
        let registeringThread = try #require(registering.values.first)
        #expect(threads.values.count == 2)
        #expect(threads.values.allSatisfy { pthread_equal($0, registeringThread) != 0 })
        #expect(try container.resolve(Hound.self, name: "seen").name == "Hound")
    }

    @Test func aChildHasBehaviorsOfItsOwn() {
        let parent = Container()
        let seen = Recorder<ServiceKey>()
        parent.observeRegistrations { seen.append($0.key) }
        let child = Container(parent: parent)
        child.register(Bone.self) { _ in Bone() }
        parent.register(Hound.self) { _ in Hound() }
        #expect(seen.values == [ServiceKey(Hound.self)])
    }

    @Test func removeAllKeepsTheBehaviors() {
        let container = Container()
        let seen = Recorder<ServiceKey>()
        container.observeRegistrations { seen.append($0.key) }
        container.removeAll()
        container.register(Bone.self) { _ in Bone() }
        #expect(seen.values == [ServiceKey(Bone.self)])
    }
}

@Suite("A module hook after loading")
struct ModuleLoadedTests {
    struct Kennels: Module {
        let log: Recorder<String>
        func register(in container: Container) {
            log.append("register kennels")
            container.register(Kennel.self) { r in try Kennel(dog: r.resolve(Hound.self)) }
        }
        func loaded(resolver: any Resolver) {
            // Hound comes from the module after this one: every module has registered by now.
            log.append("loaded kennels: " + ((try? resolver.resolve(Kennel.self).dog?.name) ?? "failed"))
        }
    }

    struct Hounds: Module {
        let log: Recorder<String>
        func register(in container: Container) {
            log.append("register hounds")
            container.register(Hound.self) { _ in Hound(name: "Rex") }
        }
        func loaded(resolver: any Resolver) {
            log.append("loaded hounds")
        }
    }

    /// Implements only `register(in:)`.
    struct Bones: Module {
        func register(in container: Container) {
            container.register(Bone.self) { _ in Bone() }
        }
    }

    @Test func runsOnceEveryModuleHasRegisteredInOrder() {
        let log = Recorder<String>()
        _ = Container(modules: [Kennels(log: log), Bones(), Hounds(log: log)])
        #expect(log.values == ["register kennels", "register hounds", "loaded kennels: Rex", "loaded hounds"])
    }

    @Test func applyRunsItToo() {
        let log = Recorder<String>()
        let container = Container()
        container.apply([Hounds(log: log)])
        container.apply([Kennels(log: log)])
        #expect(log.values == ["register hounds", "loaded hounds", "register kennels", "loaded kennels: Rex"])
    }

    @Test func theResolverIsTheContainer() {
        struct Check: Module {
            let seen: Recorder<Bool>
            func register(in container: Container) {}
            func loaded(resolver: any Resolver) { seen.append(resolver is Container) }
        }
        let seen = Recorder<Bool>()
        _ = Container(modules: [Check(seen: seen)])
        #expect(seen.values == [true])
    }
}

@Suite("Resetting one type's instances")
struct ResetOneTypeTests {
    @Test func onlyThatRegistrationsInstanceIsDropped() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound() }.scope(.walk)
        container.register(Bone.self) { _ in Bone() }.scope(.walk)
        let hound = try container.resolve(Hound.self)
        let bone = try container.resolve(Bone.self)

        container.resetScope(.walk, only: ServiceKey(Hound.self))
        #expect(try container.resolve(Hound.self) !== hound)
        #expect(try container.resolve(Bone.self) === bone)
    }

    @Test func anotherScopeIsLeftAlone() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound() }.scope(.container)
        let hound = try container.resolve(Hound.self)
        container.resetScope(.walk, only: ServiceKey(Hound.self))
        #expect(try container.resolve(Hound.self) === hound)
        container.resetScope(.container, only: ServiceKey(Hound.self))
        #expect(try container.resolve(Hound.self) !== hound)
    }

    @Test func namedAndInjectableInstances() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { _ in Hound() }.scope(.walk)
        let rex = try container.resolve(Hound.self, name: "rex")
        let leash = try container.resolve(Leash.self)
        #expect(try container.resolve(Leash.self) === leash)

        container.resetScope(.walk, only: ServiceKey(Leash.self))
        #expect(try container.resolve(Leash.self) !== leash)
        #expect(try container.resolve(Hound.self, name: "rex") === rex)
        container.resetScope(.walk, only: ServiceKey(Hound.self, name: "rex"))
        #expect(try container.resolve(Hound.self, name: "rex") !== rex)
    }

    @Test func anUnknownKeyDoesNothing() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound() }.scope(.walk)
        let hound = try container.resolve(Hound.self)
        container.resetScope(.walk, only: ServiceKey(Bone.self))
        #expect(try container.resolve(Hound.self) === hound)
    }
}

/// Swinject's `Provider` makes a new resolve on every call; its `Lazy` gives the graph's own
/// instance (Swinject's ProviderSpec and LazySpec).
@Suite("Swinject parity: Provider and Lazy after the resolve")
struct SwinjectProviderParityTests {
    final class Employer {}
    final class Employee {
        let employer: Employer
        init(employer: Employer) { self.employer = employer }
    }
    final class Manager: @unchecked Sendable {
        let employer: Employer
        let makeEmployee: Provider<Employee>
        let lazyEmployer: Lazy<Employer>
        init(employer: Employer, makeEmployee: Provider<Employee>, lazyEmployer: Lazy<Employer>) {
            self.employer = employer
            self.makeEmployee = makeEmployee
            self.lazyEmployer = lazyEmployer
        }
    }

    private func container() -> Container {
        let container = Container()
        container.register(Employer.self) { _ in Employer() }   // .graph
        container.register(Employee.self) { r in try Employee(employer: r.resolve()) }
        container.register(Manager.self) { r in
            try Manager(employer: r.resolve(), makeEmployee: r.resolve(), lazyEmployer: r.resolve())
        }
        return container
    }

    @Test func aProviderMakesANewGraphOnEveryCall() throws {
        let container = container()
        let manager = try container.resolve(Manager.self)
        let first = try manager.makeEmployee()
        let second = try manager.makeEmployee()
        #expect(first !== second)
        #expect(first.employer !== manager.employer, "an employee made by a provider does not point at the outer graph's employer")
        #expect(first.employer !== second.employer, "a .graph service is new on each call")
    }

    @Test func aLazyGivesTheGraphsOwnInstance() throws {
        let container = container()
        let manager = try container.resolve(Manager.self)
        #expect(try manager.lazyEmployer.value === manager.employer)
    }

    @Test func aProviderCalledWhileItsOwnResolveRunsIsStillACycle() throws {
        final class Loop: @unchecked Sendable {
            init(provider: Provider<Loop>) throws { _ = try provider() }
        }
        let container = Container()
        container.register(Loop.self) { r in try Loop(provider: r.resolve()) }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Loop.self) }
        #expect(error.identifier == "circular-dependency")
    }
}
