// The README's quick start: its parallel Swift Testing test, verbatim, over the quick start's
// wiring (the same types as Tests/ReadmeTests/QuickStart.swift, which that target keeps).

import Testing
import WiringSwiftTesting

@Test(.testContainer { makePetContainer() }, .override(Animal.self) { _ in Cat(name: "Test Cat") })
func theOwnerGetsTheTestCat() throws {
    let test = try #require(TestContainer.current)      // this test's own; parallel tests have theirs
    #expect(try test.resolve(Owner.self).pet.name == "Test Cat")
    #expect(test.trace.render() == """
        Owner .container new #2
        └── Animal .graph new #1 (override "test")
        """)
}

protocol Animal: AnyObject { var name: String { get } }
final class Cat: Animal {
    let name: String
    init(name: String = "Cat") { self.name = name }
}
protocol Owner: AnyObject { var pet: Animal { get } }
final class PetOwner: Owner {
    let pet: Animal
    init(pet: Animal) { self.pet = pet }
}

func makePetContainer() -> Container {
    let container = Container()
    container.register(Animal.self) { _ in Cat() }
    container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
        .scope(.container)
    return container
}

/// What the quick start's comment promises: each argument of a parameterized test, run in
/// parallel, gets a test container of its own, with the trait's override and nothing of another's.
@Test(.testContainer { makePetContainer() }, .override(Animal.self) { _ in Cat(name: "Test Cat") },
    arguments: 0..<8)
func eachParallelCaseHasItsOwnTestContainer(index: Int) throws {
    let test = try #require(TestContainer.current)
    test.override(Animal.self) { _ in Cat(name: "Cat \(index)") }
    #expect(try test.resolve(Owner.self).pet.name == "Cat \(index)")
    #expect(test.resolutionCount(of: Owner.self) == 1)
}
