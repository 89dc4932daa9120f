import WiringXCTest
import XCTest

// The `Provider` case of the README's promise "popping a layer restores what was there", in an
// XCTest test with a layer pushed by `pushLayer(_:on:)`.

private class XDep {}
private final class XFakeDep: XDep {}
private final class XTick {}
private final class XHolder: @unchecked Sendable {
    let deps: Provider<XDep>
    let tick: XTick
    init(deps: Provider<XDep>, tick: XTick) {
        self.deps = deps
        self.tick = tick
    }
}

final class ProviderProvenanceXCTests: XCTestCase {
    private func makeProviderApp() -> Container {
        let base = Container()
        base.register(XDep.self) { _ in XDep() }
        base.register(XTick.self) { _ in XTick() }.scope(.container)
        base.register(XHolder.self) { r in try XHolder(deps: r.resolve(), tick: r.resolve()) }.scope(.container)
        return base
    }

    func testPoppingALayerBringsBackASingletonThatHoldsAProviderOfAnOverriddenType() throws {
        let test = makeTestContainer(base: makeProviderApp())
        test.override(XDep.self) { _ in XFakeDep() }
        let original = try test.resolve(XHolder.self)
        XCTAssertTrue(try original.deps() is XFakeDep)

        pushLayer("x", on: test).override(XTick.self) { _ in XTick() }.scope(.container)
        XCTAssertFalse(try test.resolve(XHolder.self) === original)
        test.popLayer()

        XCTAssertTrue(try test.resolve(XHolder.self) === original, test.trace.render())
        XCTAssertFalse(test.trace.render().contains("Provider<XDep> is now answered"), test.trace.render())
    }
}
