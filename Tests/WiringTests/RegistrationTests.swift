import Testing
import Wiring

@Suite("Registering and resolving")
struct RegistrationTests {
    @Test func resolvesAFactoryRegistration() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "Tom") }
        let cat = try container.resolve(Animal.self)
        #expect(cat.name == "Tom")
        #expect(cat is Cat)
    }

    @Test func namesTellRegistrationsApart() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        #expect(try container.resolve(Animal.self).name == "Cat")
        #expect(try container.resolve(Animal.self, name: "mimi").name == "Mimi")
    }

    /// Names are found by a hash of their bytes first; two names Swift calls equal may differ in
    /// bytes (composed or not; a Greek question mark is a semicolon), and still find each other.
    @Test func namesEqualAsStringsFindEachOtherWhateverTheirBytes() throws {
        let container = Container()
        container.register(Animal.self, name: "caf\u{E9}") { _ in Cat(name: "composed") }
        container.register(Animal.self, name: ";") { _ in Cat(name: "semicolon") }
        container.register(Animal.self, name: "with arguments") { (_, name: String) in Cat(name: name) }
        #expect(try container.resolve(Animal.self, name: "cafe\u{301}").name == "composed")
        #expect(try container.resolve(Animal.self, name: "\u{37E}").name == "semicolon")
        #expect(try container.resolve(Animal.self, name: "with arguments", arguments: "Rex").name == "Rex")
        #expect(throws: ResolutionError.self) { try container.resolve(Animal.self, name: "cafe") }
        // Many names of one type: each finds its own.
        for index in 0..<2_000 {
            container.register(Animal.self, name: "cat-\(index)") { _ in Cat(name: "\(index)") }
        }
        for index in stride(from: 0, to: 2_000, by: 7) {
            #expect(try container.resolve(Animal.self, name: "cat-\(index)").name == "\(index)")
        }
        #expect(try container.resolve(Animal.self, name: "caf\u{E9}").name == "composed")
        // Inside a factory, and from a child whose parent holds the names, the same.
        container.register(Owner.self, name: "decomposed") { r in PetOwner(pet: try r.resolve(Animal.self, name: "cafe\u{301}")) }
        container.register(Owner.self, name: "question mark") { r in PetOwner(pet: try r.resolve(Animal.self, name: "\u{37E}")) }
        let child = Container(parent: container)
        for resolver in [container, child] {
            #expect(try resolver.resolve(Owner.self, name: "decomposed").pet.name == "composed")
            #expect(try resolver.resolve(Owner.self, name: "question mark").pet.name == "semicolon")
            #expect(try resolver.resolve(Animal.self, name: "cat-1001").name == "1001")
            #expect(throws: ResolutionError.self) { try resolver.resolve(Animal.self, name: "cat-2000") }
        }
    }

    /// Two different names may share the hash a named lookup starts from: these two share
    /// their 64-bit FNV-1a hash. Each still finds its own registration, whichever came last.
    @Test func namesSharingAHashEachFindTheirOwnRegistration() throws {
        let container = Container()
        container.register(Animal.self, name: "k9PQor8dh7uP") { _ in Cat(name: "first") }
        container.register(Animal.self, name: "k4_kQqs2RqID") { _ in Cat(name: "second") }
        #expect(try container.resolve(Animal.self, name: "k9PQor8dh7uP").name == "first")
        #expect(try container.resolve(Animal.self, name: "k4_kQqs2RqID").name == "second")
    }

    @Test func runtimeArgumentsArePartOfTheKey() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        container.register(Animal.self) { (_, name: String, asleep: Bool) in Cat(name: name, sleeping: asleep) }

        #expect(try container.resolve(Animal.self).name == "Cat")
        #expect(try container.resolve(Animal.self, arguments: "Mew").name == "Mew")
        let sleepy = try #require(try container.resolve(Animal.self, arguments: "Mew", true) as? Cat)
        #expect(sleepy.name == "Mew")
        #expect(sleepy.sleeping)
        let named = try container.resolve(Animal.self, name: nil, arguments: "Named", false)
        #expect(named.name == "Named")
    }

    @Test func runtimeArgumentsReachFactoriesAtEveryDepthAndAreNotKept() throws {
        let parent = Container()
        parent.register(Animal.self) { (_, name: String, leaf: Leaf) in Cat(name: name) }
        parent.register(Owner.self) { (r, name: String) in
            try PetOwner(pet: r.resolve(Animal.self, arguments: name + " jr", Leaf()))
        }
        let child = Container(parent: parent)
        weak var passed: Leaf?
        do {
            let leaf = Leaf()
            passed = leaf
            #expect(try child.resolve(Animal.self, arguments: "Tom", leaf).name == "Tom")
        }
        #expect(passed == nil)
        #expect(try child.resolve(Owner.self, arguments: "Tom").pet.name == "Tom jr")
        #expect(try parent.resolve(Owner.self, arguments: "Max").pet.name == "Max jr")
    }

    @Test func aFactoryRegisteredGenericallyWithNoArgumentsIsAPlainRegistration() throws {
        func registerGenerically<Service, each Argument>(
            _ container: Container, _ serviceType: Service.Type,
            factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
        ) -> Registration<Service> {
            container.register(serviceType, factory: factory)
        }
        let container = Container()
        let registration = registerGenerically(container, Leaf.self) { _ in Leaf() }
        #expect(!registration.key.takesArguments)
        let leaf = try container.resolve(Leaf.self)
        #expect(try container.resolve(Leaf.self) !== leaf)
        let branch = Container()
        _ = registerGenerically(branch, Leaf.self) { _ in Leaf() }
        branch.register(Branch.self) { r in try Branch(left: r.resolve(Leaf.self), right: r.resolve(Leaf.self)) }
        let resolved = try branch.resolve(Branch.self)
        #expect(resolved.left === resolved.right)
    }

    @Test func aSingletonWithArgumentsKeepsOneInstancePerArguments() throws {
        // Swinject keeps the first call's instance for every later call; a kept instance per
        // distinct arguments keeps a user's rate limiter from answering another user.
        let container = Container()
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }.scope(.container)
        let first = try container.resolve(Animal.self, arguments: "first")
        let second = try container.resolve(Animal.self, arguments: "second")
        #expect(first.name == "first")
        #expect(second.name == "second")
        #expect(try container.resolve(Animal.self, arguments: "first") === first)
        #expect(try container.resolve(Animal.self, arguments: "second") === second)
    }

    @Test func aTupleArgumentIsNotTwoArguments() throws {
        let container = Container()
        container.register(String.self) { (_, pair: (String, Bool)) in "one tuple \(pair.0)" }
        container.register(String.self) { (_, name: String, flag: Bool) in "two values \(name)" }
        #expect(try container.resolve(String.self, arguments: ("a", true)) == "one tuple a")
        #expect(try container.resolve(String.self, arguments: "b", true) == "two values b")
    }

    @Test func typeIsInferredFromTheContext() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "Inferred") }
        container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
        let animal: Animal = try container.resolve()
        let mimi: Animal = try container.resolve(name: "mimi")
        #expect(animal.name == "Inferred")
        #expect(mimi.name == "Mimi")
    }

    @Test func factoriesResolveTheirDependencies() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "Pet") }
        container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
        #expect(try container.resolve(Owner.self).pet.name == "Pet")
    }

    @Test func aReadyInstanceIsSharedLikeASingleton() throws {
        let container = Container()
        let cat = Cat(name: "Only")
        container.register(Animal.self, instance: cat)
        #expect(try container.resolve(Animal.self) === cat)
        #expect(try container.resolve(Animal.self) === cat)
    }

    @Test func registeringAKeyAgainReplacesIt() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "first") }
        container.register(Animal.self) { _ in Cat(name: "second") }
        #expect(try container.resolve(Animal.self).name == "second")
        #expect(container.registeredKeys == [ServiceKey(Animal.self)])
    }

    @Test func replacingASingletonDropsTheOldInstance() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat(name: "first") }.scope(.container)
        _ = try container.resolve(Animal.self)
        container.register(Animal.self) { _ in Cat(name: "second") }.scope(.container)
        #expect(try container.resolve(Animal.self).name == "second")
    }

    @Test func initCompletedRunsAfterTheFactory() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Food.self) { _ in Fish() }
        container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
            .scope(.container)
            .initCompleted { r, owner in owner.food = try? r.resolve(Food.self) }
        let owner = try container.resolve(Owner.self)
        #expect(owner.food is Fish)
    }

    @Test func initCompletedBreaksACycleThroughAProperty() throws {
        final class Parent { var child: Child? }
        final class Child {
            let parent: Parent
            init(parent: Parent) { self.parent = parent }
        }
        let container = Container()
        container.register(Parent.self) { _ in Parent() }
            .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
        container.register(Child.self) { r in try Child(parent: r.resolve(Parent.self)) }
        let parent = try container.resolve(Parent.self)
        #expect(parent.child?.parent === parent)
    }

    @Test func modulesApplyInOrderAndLaterOnesWin() throws {
        struct Pets: Module {
            func register(in container: Container) {
                container.register(Animal.self) { _ in Cat(name: "from Pets") }
                container.register(Food.self) { _ in Fish() }
            }
        }
        struct Dogs: Module {
            func register(in container: Container) {
                container.register(Animal.self) { _ in Dog() }
            }
        }
        let container = Container(modules: [Pets(), Dogs()])
        #expect(try container.resolve(Animal.self) is Dog)
        #expect(try container.resolve(Food.self) is Fish)

        container.apply([Pets()])
        #expect(try container.resolve(Animal.self).name == "from Pets")
    }

    @Test func resolveAllReturnsEveryRegistrationWithoutArgumentsInOrder() throws {
        let parent = Container()
        parent.register(Animal.self, name: "parent") { _ in Cat(name: "parent") }
        let container = Container(parent: parent)
        container.register(Animal.self) { _ in Cat(name: "unnamed") }
        container.register(Animal.self, name: "dog") { _ in Dog() }
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        container.register(Food.self) { _ in Fish() }
        let names = try container.resolveAll(Animal.self).map(\.name)
        #expect(names == ["parent", "unnamed", "Dog"])
    }

    @Test func implementsServesOneInstanceAsAnotherType() throws {
        let container = Container()
        container.register(Cat.self) { _ in Cat(name: "shared") }
            .scope(.container)
            .implements(Animal.self)
        let cat = try container.resolve(Cat.self)
        #expect(try container.resolve(Animal.self) === cat)
    }

    @Test func removeAllForgetsEverything() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.removeAll()
        #expect(container.registeredKeys.isEmpty)
        #expect(throws: ResolutionError.self) { try container.resolve(Animal.self) }
    }

    @Test func serviceKeysDescribeThemselves() {
        #expect(ServiceKey(Animal.self).description == "Animal")
        #expect(ServiceKey(Animal.self, name: "mimi").description == #"Animal (name: "mimi")"#)
        #expect(ServiceKey(Animal.self, arguments: String.self, Bool.self).description == "Animal (arguments: String, Bool)")
        #expect(ServiceKey(Animal.self, name: "x", arguments: Int.self).description == #"Animal (name: "x", arguments: Int)"#)
        #expect(ServiceKey(Animal.self) != ServiceKey(Animal.self, arguments: String.self))
        #expect(ServiceKey(Animal.self, arguments: String.self).argumentTypes.map { "\($0)" } == ["String"])
    }
}
