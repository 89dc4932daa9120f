import Testing
import Wiring

// The migration guides' example of Wiring's names written with the module's name, as a file
// that imports Swinject, Factory or swift-dependencies too must write them.

@Suite struct MigrationGuides {
    @Test func wiringsTypesWrittenWithTheModuleName() throws {
        let container = Wiring.Container()
        container.register(Animal.self) { _ in Cat() }
        let makeCat = try container.resolve(Wiring.Provider<Animal>.self)
        let lazyCat = try container.resolve(Wiring.Lazy<Animal>.self)

        #expect(try makeCat() !== makeCat())          // .graph: a new resolve on each call
        #expect(try lazyCat.value === lazyCat.value)  // resolved once, on first use
        #expect(try lazyCat.value.name == "Cat")
    }
}
