import Testing
import Wiring
import WiringTestSupport

@Test func theOwnerGetsTheRegisteredPet() throws {
    let test = TestContainer(base: makePetContainer())      // the app's wiring, never modified
    test.override(Animal.self) { _ in Cat(name: "Test Cat") }

    #expect(try test.resolve(Owner.self).pet.name == "Test Cat")
    #expect(test.verifyWiring().isComplete)                  // every registration built, none left unchecked
    #expect(test.trace.render() == """
        Owner .container new #2
        └── Animal .graph new #1 (override "test")
        """)
}

@Test func theQuickStartResolvesAtLaunch() throws {
    let container = makePetContainer()
    let owner = try container.resolve(Owner.self)        // PetOwner(pet: Cat)
    let same = try container.resolve(Owner.self)         // the same instance: .container scope

    #expect(owner.pet.name == "Cat")
    #expect(owner === same)
}
