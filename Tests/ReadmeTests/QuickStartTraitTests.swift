// The README's quick start: its parallel Swift Testing test, verbatim, over the quick start's
// wiring (QuickStart.swift).

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
