import Testing
import Wiring
import WiringTestSupport

// Numbering the instances of a trace compares each step only with the steps that gave the same
// object, and finds what a `.graph` step shared and where a subtree ends from indexes made once:
// a resolution of 90,000 steps is read in about half a second in a debug build. (It compared
// every step with every step that finished before it: this one took about a minute.)

private protocol BTPart: AnyObject {}
private final class BTLeaf: BTPart {}
private final class BTShared {}
private final class BTSingleton {}
private final class BTRoot {
    init(_ parts: [AnyObject]) {}
}

@Suite struct BoundedTraces {
    @Test func aResolutionOfNinetyThousandStepsIsNumberedQuickly() throws {
        let container = Container()
        container.register(BTLeaf.self) { _ in BTLeaf() }.scope(.transient)
        container.register(BTShared.self) { _ in BTShared() }.scope(.graph)
        container.register(BTSingleton.self) { _ in BTSingleton() }.scope(.container)
        // Another registration's instance, made below it: the same instance, the same number.
        container.register((any BTPart).self) { r in try r.resolve(BTLeaf.self) }.scope(.transient)
        container.register(BTRoot.self) { r in
            var parts: [AnyObject] = []
            for _ in 0..<30_000 { try parts.append(r.resolve(BTLeaf.self)) }
            for _ in 0..<30_000 { try parts.append(r.resolve(BTShared.self)) }
            for _ in 0..<30_000 { try parts.append(r.resolve(BTSingleton.self)) }
            for _ in 0..<1_000 { try parts.append(r.resolve((any BTPart).self)) }
            return BTRoot(parts)
        }
        let test = TestContainer(base: container)

        let clock = ContinuousClock()
        let start = clock.now
        _ = try test.resolve(BTRoot.self)
        let root = try #require(test.trace.roots.first)
        let elapsed = clock.now - start

        let children = root.children
        #expect(children.count == 91_000)
        // Every leaf is new; the graph's one is shared; the singleton is made once, then kept.
        #expect(Set(children[0..<30_000].compactMap(\.instance)).count == 30_000)
        #expect(Set(children[30_000..<60_000].compactMap(\.instance)).count == 1)
        #expect(children[30_001].outcome == .sharedInGraph)
        #expect(Set(children[60_000..<90_000].compactMap(\.instance)).count == 1)
        #expect(children[60_001].outcome == .cached)
        let parts = children[90_000...]
        #expect(parts.allSatisfy { $0.instance != nil && $0.instance == $0.children.first?.instance })
        #expect(Set(parts.compactMap(\.instance)).count == 1_000)
        #expect(root.instance == 31_003)
        // Generous for sanitizers and parallel tests, and still well below the quadratic minute.
        #expect(elapsed < .seconds(30))
    }
}
