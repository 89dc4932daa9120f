import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// A layer's fakes (a `.fakes` trait's under a shared test container) are one test's, as an
// override is; each test below that names a promise failed before its fix (found by a ninth
// hunt). Also checked: each case of a parameterized test, with encodable or opaque (non-Codable) arguments, fails once for a finding of a test container the cases share (TestCaseKey tells cases apart); a layer fake answers its test's own lookups.

private final class LayerFakeLeaf: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}
private final class LayerFakeNeeds: Sendable {
    let leaf: LayerFakeLeaf
    init(leaf: LayerFakeLeaf) { self.leaf = leaf }
}

private final class LayerFakeUnregistered: Sendable {}
/// An argument Swift Testing cannot encode: neither `Codable`, `Identifiable` nor `RawRepresentable`.
final class CaseOpaque: Sendable, CustomStringConvertible {
    let number: Int
    init(_ number: Int) { self.number = number }
    var description: String { "CaseOpaque(\(number))" }
}

@Suite struct LayerFakesTests {
    static let sharedByIntCases = TestContainer(base: Container())
    static let sharedByOpaqueCases = TestContainer(base: Container())

    // Held: each case fails once for the finding of a container the cases share, with
    // encodable and with opaque arguments alike (TestCaseKey tells them apart).
    @Test(arguments: [0, 1, 2, 3])
    func eachIntCaseFailsForAFindingOfASharedContainer(index: Int) {
        _ = expectFailures { Self.sharedByIntCases.override(LayerFakeUnregistered.self) { _ in LayerFakeUnregistered() } }
    }

    @Test(arguments: [CaseOpaque(0), CaseOpaque(1), CaseOpaque(2), CaseOpaque(3)])
    func eachOpaqueCaseFailsForAFindingOfASharedContainer(argument: CaseOpaque) {
        _ = expectFailures { Self.sharedByOpaqueCases.override(LayerFakeUnregistered.self) { _ in LayerFakeUnregistered() } }
    }

    /// Promise (LayersAndParallelTests.md, "An override is never ignored"): "Only what the test
    /// stands in with counts (an override, a fake)": a kept instance that depends on a key a
    /// layer now answers otherwise is made again. TestDoubleTrait: a `.fakes` trait under a
    /// shared test container goes into the test's own layer.
    ///
    /// Before the fix: a shared test container keeps `LayerFakeNeeds` (`.container`), made with the container's
    /// fake `LayerFakeLeaf("suite")`. A test with `.fakes { LayerFakeLeaf("mine") }` under it resolves
    /// `LayerFakeLeaf` as its own fake, "mine", but gets the kept `LayerFakeNeeds` holding "suite": another
    /// test's fake, silently. Every run (3 of 3).
    ///
    /// Cause: `LayerSnapshot.staleness(of:madeWith:keptIn:)` (WiringTestSupport/Internal/
    /// Layers/LayerSnapshot.swift) returns "not stale" at once when `madeWith.registry ===
    /// registry`. A layer that has only fakes (`OverrideLayer.layerFakes`, merged into the
    /// snapshot's `fakes` by `LayerStack.fakes(seenThrough:)`) adds no override, so
    /// `LayerSnapshot.init` keeps `registry = baseRegistry`, the very registry the instance was
    /// made with: the dependency-by-dependency check, which would see the fake answering now,
    /// never runs.
    @Test func aLayerFakeReachesAKeptInstanceOfASharedContainer() async throws {
        let container = Container()
        container.register(LayerFakeNeeds.self) { r in try LayerFakeNeeds(leaf: r.resolve()) }.scope(.container)
        let shared = TestContainer(base: container)
        shared.fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("suite") }
        // Another test of the shared container made (and keeps) LayerFakeNeeds with the container's fake.
        #expect(try shared.resolve(LayerFakeNeeds.self).leaf.label == "suite")

        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("mine") } }
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let leaf = try shared.resolve(LayerFakeLeaf.self)
                let needs = try shared.resolve(LayerFakeNeeds.self)
                #expect(leaf.label == "mine")           // the test's fake answers
                #expect(needs.leaf.label == "mine")     // so what holds one is made again
            }
        }
    }

    /// Promise (as above): a fake is what the test stands in with, and counts; an instance that
    /// depends on a key answered otherwise now is made again.
    ///
    /// Before the fix: `test.fakes.register(LayerFakeLeaf) { "first" }`, `LayerFakeNeeds` resolved and kept; in a pushed
    /// layer the fake is registered again as "second": `LayerFakeLeaf` answers "second", the kept
    /// `LayerFakeNeeds` still holds "first". Every run (3 of 3).
    ///
    /// Cause: the same shortcut in `LayerSnapshot.staleness(of:madeWith:keptIn:)`: the fakes
    /// are not in the snapshot's `registry`, which is the base's as long as no layer overrides,
    /// so a changed fake never makes it differ from `madeWith.registry`.
    @Test func aFakeRegisteredAgainReachesAKeptInstance() throws {
        let container = Container()
        container.register(LayerFakeNeeds.self) { r in try LayerFakeNeeds(leaf: r.resolve()) }.scope(.container)
        let test = TestContainer(base: container)
        test.fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("first") }
        #expect(try test.resolve(LayerFakeNeeds.self).leaf.label == "first")
        test.pushLayer("second")
        test.fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("second") }
        #expect(try test.resolve(LayerFakeLeaf.self).label == "second")
        #expect(try test.resolve(LayerFakeNeeds.self).leaf.label == "second")
        test.popLayer()
    }

    /// Promise (TestDoubleTrait): under a shared test container a `.fakes` trait's fakes go
    /// into "the test's own layer", seen only by this test's task; `assertNoFakesUsed(test)`
    /// fails "listing every key a default from `test.fakes` stood in for".
    ///
    /// Before the fix: a test with `.fakes { LayerFakeLeaf }` under a shared test container resolves `LayerFakeLeaf`
    /// from its layer's fake. Afterwards (or meanwhile, in parallel) another test of that
    /// container, which declared no fake and resolves nothing, calls
    /// `assertNoFakesUsed(shared)`: it fails, "1 service came from fakes … LayerFakeLeaf". Every run
    /// (3 of 3).
    ///
    /// Cause: `TraceRecorder.willResolve(_:path:)` (WiringTestSupport/Internal/Recording/
    /// TraceRecorder.swift) notes every use of a fake, the layer's own
    /// (`OverrideLayer.layerFakes`) included, in `store.fakes`, the container's shared
    /// `Fakes`, whose `fakedKeys` `checkNoFakesUsed` reads: the layer's fakes were added without
    /// a `faked` list of their own.
    @Test func aLayerFakeUsedByOneTestDoesNotFailAnotherTestsAssertNoFakesUsed() async throws {
        let shared = TestContainer(base: Container())
        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("theirs") } }
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let leaf = try shared.resolve(LayerFakeLeaf.self)
                #expect(leaf.label == "theirs")
            }
        }
        // Another test of the shared container: it declared no fake and used none, so this
        // passes (a failure it recorded would fail this test).
        assertNoFakesUsed(shared)
        // While the test that used it still runs, its own check sees it.
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                _ = try shared.resolve(LayerFakeLeaf.self)
                _ = expectFailures { assertNoFakesUsed(shared) }
            }
        }
    }

    /// Promise (TestContainer.resetScope(_:only:)): drops what every layer keeps for the
    /// registrations of the scope that answer the key: "a layer's override, the base's
    /// registration, a fake or an implicit one" (LayerStack.resetScope(_:only:)).
    ///
    /// Before the fix: under a shared test container, a `.fakes` trait registers `LayerFakeLeaf` as a
    /// `.container` fake; resolved twice, one instance. `shared.resetScope(.container, only:
    /// ServiceKey(LayerFakeLeaf.self))`, then a resolve: the same instance again. Every run (3 of 3).
    ///
    /// Cause: `LayerStack.resetScope(_:only:)` (WiringTestSupport/Internal/Layers/
    /// LayerStack.swift) looks the key up in `fakes.registry`, the container's fakes only,
    /// not in the fakes of the layers (`OverrideLayer.layerFakes`, which
    /// `LayerStack.fakes(seenThrough:)` merges for lookups): the layer fake's entry id is never
    /// among those dropped.
    @Test func resetScopeOnlyDropsWhatALayerFakeKeeps() async throws {
        let shared = TestContainer(base: Container())
        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(LayerFakeLeaf.self) { LayerFakeLeaf("kept") }.scope(.container) }
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let first = try shared.resolve(LayerFakeLeaf.self)
                #expect(try shared.resolve(LayerFakeLeaf.self) === first)      // kept
                shared.resetScope(.container, only: ServiceKey(LayerFakeLeaf.self))
                let after = try shared.resolve(LayerFakeLeaf.self)
                #expect(after !== first)
            }
        }
    }
}
