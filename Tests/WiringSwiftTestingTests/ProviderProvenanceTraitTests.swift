import Testing
import WiringSwiftTesting

// The `Provider` case of the README's promise "popping a layer restores what was there", in a
// Swift Testing test whose container and override come from traits.

private class PDep {}
private final class PFakeDep: PDep {}
private final class PTick {}
private final class PHolder: @unchecked Sendable {
    let deps: Provider<PDep>
    let tick: PTick
    init(deps: Provider<PDep>, tick: PTick) {
        self.deps = deps
        self.tick = tick
    }
}

private func makeProviderApp() -> Container {
    let base = Container()
    base.register(PDep.self) { _ in PDep() }
    base.register(PTick.self) { _ in PTick() }.scope(.container)
    base.register(PHolder.self) { r in try PHolder(deps: r.resolve(), tick: r.resolve()) }.scope(.container)
    return base
}

@Test(.testContainer { makeProviderApp() }, .override(PDep.self) { _ in PFakeDep() })
func poppingALayerBringsBackASingletonThatHoldsAProviderOfAnOverriddenType() throws {
    let test = try #require(TestContainer.current)
    let original = try test.resolve(PHolder.self)
    #expect(try original.deps() is PFakeDep)

    test.pushLayer("x")
    test.override(PTick.self) { _ in PTick() }.scope(.container)
    #expect(try test.resolve(PHolder.self) !== original)
    test.popLayer()

    #expect(try test.resolve(PHolder.self) === original, "\(test.trace.render())")
    #expect(!test.trace.render().contains("Provider<PDep> is now answered"), "\(test.trace.render())")
}
