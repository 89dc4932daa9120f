import Wiring
import WiringTestSupport
import XCTest

extension XCTestCase {
    /// A fresh test container over `base` for this test; at teardown, even when the test fails
    /// or throws, every layer pushed on it is popped, dropping the instances made in them.
    ///
    /// ```swift
    /// final class CheckoutTests: XCTestCase {
    ///     func testCheckoutUsesTheNetwork() throws {
    ///         let test = makeTestContainer(base: makeAppContainer()) { fakes in
    ///             fakes.register(Analytics.self) { NoopAnalytics() }
    ///         }
    ///         test.override(Network.self) { _ in FakeNetwork() }
    ///         assertResolves(Checkout.self, in: test)
    ///     }
    /// }
    /// ```
    ///
    /// XCTest keeps every test case object until the whole run ends, so a container kept in a
    /// property would otherwise keep its singletons that long.
    ///
    /// The test container is this test's: wiring coverage counts what it resolves for this test,
    /// and resolving through it once the test has finished fails the test running then (or, with
    /// none, is a warning at the end of the run). Code that falls back to `Container.shared`
    /// while this test runs fails it too: the test has a container of its own.
    /// - Parameters:
    ///   - base: The app's container, which the test container never modifies.
    ///   - fakes: Registers default fakes, used only where nothing is registered.
    /// - Returns: The test container, for this test only.
    public func makeTestContainer(base: Container, fakes: (Fakes) -> Void = { _ in }) -> TestContainer {
        TestIdentification.install()
        let run = TestIdentification.run(for: self)
        let test = TestContainer(base: base)
        test.declareMade(for: run, by: "`makeTestContainer(base:)`")
        fakes(test.fakes)
        popLayersAtTeardown(of: test, downTo: 0)
        return test
    }

    /// Pushes a layer on a test container for this test only: at teardown, even when the test
    /// fails, it is popped with every layer pushed above it.
    ///
    /// ```swift
    /// static let shared = TestContainer(base: makeAppContainer())   // shared by the class's tests
    ///
    /// func testOffline() throws {
    ///     let offline = pushLayer("offline", on: Self.shared)
    ///     offline.override(Network.self) { _ in OfflineNetwork() }
    ///     …
    /// }
    /// ```
    /// - Parameters:
    ///   - name: The layer's name, shown in traces and reports.
    ///   - test: The test container to push it on.
    ///   - file: Where the layer is pushed, for warnings; leave the default.
    ///   - line: The line it is pushed at; leave the default.
    /// - Returns: The layer, to add overrides to.
    @discardableResult
    public func pushLayer(
        _ name: String, on test: TestContainer, file: StaticString = #fileID, line: UInt = #line
    ) -> OverrideLayer {
        TestIdentification.install()
        _ = TestIdentification.run(for: self)
        let depth = test.layerNames.count
        let layer = test.pushLayer(name, file: file, line: line)
        popLayersAtTeardown(of: test, downTo: depth)
        return layer
    }

    private func popLayersAtTeardown(of test: TestContainer, downTo depth: Int) {
        addTeardownBlock {
            while test.layerNames.count > depth, test.popLayer() != nil {}
        }
    }
}
