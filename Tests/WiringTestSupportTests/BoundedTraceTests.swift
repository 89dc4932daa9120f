import Testing
import Wiring
import WiringTestSupport

// Numbering the instances of a trace compares each step only with the finished steps that gave
// the same object, and finds what a `.graph` step shared and where a subtree ends from indexes
// made once: linear in the steps. It compared every step with every step that finished before
// it: a resolution of 90,000 steps took 54.8 s to read in a debug build, 0.56 s since.

private protocol BTPart: AnyObject {}
private final class BTLeaf: BTPart {}
private final class BTShared {}
private final class BTSingleton {}
private final class BTRoot {
    init(_ parts: [AnyObject]) {}
}

@Suite struct BoundedTraces {
    @Test func numberingAResolutionOfNineThousandStepsComparesEachStepWithAFewOthers() throws {
        let container = Container()
        container.register(BTLeaf.self) { _ in BTLeaf() }.scope(.transient)
        container.register(BTShared.self) { _ in BTShared() }.scope(.graph)
        container.register(BTSingleton.self) { _ in BTSingleton() }.scope(.container)
        // Another registration's instance, made below it: the same instance, the same number.
        container.register((any BTPart).self) { r in try r.resolve(BTLeaf.self) }.scope(.transient)
        container.register(BTRoot.self) { r in
            var parts: [AnyObject] = []
            for _ in 0..<3_000 { try parts.append(r.resolve(BTLeaf.self)) }
            for _ in 0..<3_000 { try parts.append(r.resolve(BTShared.self)) }
            for _ in 0..<3_000 { try parts.append(r.resolve(BTSingleton.self)) }
            for _ in 0..<100 { try parts.append(r.resolve((any BTPart).self)) }
            return BTRoot(parts)
        }
        let test = TestContainer(base: container)

        _ = try test.resolve(BTRoot.self)
        let root = try #require(test.trace.roots.first)

        let children = root.children
        #expect(children.count == 9_100)
        // Every leaf is new; the graph's one is shared; the singleton is made once, then kept.
        #expect(Set(children[0..<3_000].compactMap(\.instance)).count == 3_000)
        #expect(Set(children[3_000..<6_000].compactMap(\.instance)).count == 1)
        #expect(children[3_001].outcome == .sharedInGraph)
        #expect(Set(children[6_000..<9_000].compactMap(\.instance)).count == 1)
        #expect(children[6_001].outcome == .cached)
        let parts = children[9_000...]
        #expect(parts.allSatisfy { $0.instance != nil && $0.instance == $0.children.first?.instance })
        #expect(Set(parts.compactMap(\.instance)).count == 100)
        #expect(root.instance == 3_103)
        // About one comparison a step (9,201 steps); scanning the finished steps, as numbering
        // did before, made 9.9 million (checked with the index turned off).
        #expect(test.numberingComparisons <= 2 * 9_201)
    }
}
