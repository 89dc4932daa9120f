import Testing
import Wiring

/// What a hierarchy of three or more containers answers, and which instance a runtime-argument
/// registration keeps: behaviours a two-level test cannot tell apart from a wrong lookup order.
@Suite("Lookup order and per-argument instances")
struct LookupOrderTests {
    /// root ← middle ← leaf: both ancestors register `Animal`, the leaf nothing.
    func makeChain() -> (root: Container, middle: Container, leaf: Container) {
        let root = Container()
        root.register(Animal.self) { _ in Cat(name: "root's") }
        let middle = Container(parent: root)
        middle.register(Animal.self) { _ in Cat(name: "middle's") }
        return (root, middle, Container(parent: middle))
    }

    @Test func theNearestAncestorAnswersBeforeAFartherOne() throws {
        let (root, middle, leaf) = makeChain()
        #expect(try leaf.resolve(Animal.self).name == "middle's")
        #expect(try middle.resolve(Animal.self).name == "middle's")
        #expect(try root.resolve(Animal.self).name == "root's")
        #expect(try Container(parent: leaf).resolve(Animal.self).name == "middle's")
    }

    @Test func theNearestAncestorAnswersANestedResolveToo() throws {
        let (root, _, leaf) = makeChain()
        root.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
        #expect(try leaf.resolve(Owner.self).pet.name == "middle's")
        #expect(try root.resolve(Owner.self).pet.name == "root's")
    }

    @Test func theNearestAncestorAnswersNamedAndArgumentKeys() throws {
        let (root, middle, leaf) = makeChain()
        root.register(Animal.self, name: "pet") { _ in Cat(name: "root's pet") }
        middle.register(Animal.self, name: "pet") { _ in Cat(name: "middle's pet") }
        root.register(Animal.self) { (_, name: String) in Cat(name: "root's \(name)") }
        middle.register(Animal.self) { (_, name: String) in Cat(name: "middle's \(name)") }
        #expect(try leaf.resolve(Animal.self, name: "pet").name == "middle's pet")
        #expect(try leaf.resolve(Animal.self, arguments: "Tom").name == "middle's Tom")
        #expect(try leaf.resolveAll(Animal.self).map(\.name).sorted() == ["middle's", "middle's pet"])
    }

    @Test func aKeptInstanceLivesInTheContainerThatRegisteredIt() throws {
        let (root, middle, leaf) = makeChain()
        middle.register(Animal.self, name: "kept") { _ in Cat(name: "kept") }.scope(.container)
        root.register(Animal.self, name: "kept") { _ in Cat(name: "root's kept") }.scope(.container)
        let fromLeaf = try leaf.resolve(Animal.self, name: "kept")
        #expect(try middle.resolve(Animal.self, name: "kept") === fromLeaf)
        #expect(try root.resolve(Animal.self, name: "kept") !== fromLeaf)
        #expect(try Container(parent: leaf).resolve(Animal.self, name: "kept") === fromLeaf)
    }

    @Test func aKeptInstancePerArgumentsIsKeyedOnEveryArgument() throws {
        let container = Container()
        container.register(Animal.self) { (_, name: String, age: Int) in Cat(name: "\(name) \(age)") }
            .scope(.container)
        let tom1 = try container.resolve(Animal.self, arguments: "Tom", 1)
        let tom2 = try container.resolve(Animal.self, arguments: "Tom", 2)
        let kit1 = try container.resolve(Animal.self, arguments: "Kit", 1)
        #expect([tom1.name, tom2.name, kit1.name] == ["Tom 1", "Tom 2", "Kit 1"])
        #expect(tom1 !== tom2 && tom1 !== kit1 && tom2 !== kit1)
        #expect(try container.resolve(Animal.self, arguments: "Tom", 1) === tom1)
        #expect(try container.resolve(Animal.self, arguments: "Tom", 2) === tom2)
        #expect(try container.resolve(Animal.self, arguments: "Kit", 1) === kit1)
        // The same arguments through a factory's resolver find the same instance.
        container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self, arguments: "Kit", 1)) }
        #expect(try container.resolve(Owner.self).pet === kit1)
    }

    @Test func aKeptInstancePerArgumentsIsKeyedOnTheName() throws {
        let container = Container()
        container.register(Animal.self, name: "a") { (_, name: String) in Cat(name: "a \(name)") }.scope(.container)
        container.register(Animal.self, name: "b") { (_, name: String) in Cat(name: "b \(name)") }.scope(.container)
        let a = try container.resolve(Animal.self, name: "a", arguments: "Tom")
        let b = try container.resolve(Animal.self, name: "b", arguments: "Tom")
        #expect(a.name == "a Tom" && b.name == "b Tom")
        #expect(a !== b)
        #expect(try container.resolve(Animal.self, name: "a", arguments: "Tom") === a)
        container.resetScope(.container)
        #expect(try container.resolve(Animal.self, name: "a", arguments: "Tom") !== a)
    }
}
