import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers
import WiringXCTest
import XCTest

// A file importing both modules calls every assertion unqualified: each is declared once, in the
// module both re-export, so nothing is ambiguous.

@Suite struct BothModulesTests {
    @Test func everyAssertionUnqualified() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        let network = assertResolves(Network.self, in: test)
        #expect(network != nil)
        assertResolves(Network.self, to: FakeNetwork.self, in: test)
        assertResolves(Network.self, name: nil, in: test)
        assertScope(Network.self, is: .container, in: test)
        assertWiringComplete(test)
        assertWiringComplete(makeAppContainer()) { _ in }
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test, ignoring: [ServiceKey(Logger.self)])
        assertRegistered([ServiceKey(Checkout.self)], in: test)
        assertNoFakesUsed(test)
        assertNoWiringWarnings(test)
        assertTraceSnapshot(test.trace, named: "checkout")
        let directory = try TemporaryDirectory()
        _ = expectFailures { assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: directory.path, record: true) }
        assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: directory.path, record: false)
        assertWiringSnapshot(test, named: "app")
        _ = expectFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path, record: true) }
        assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path, record: false) { _ in }
    }

    @Test func theSourceLocationForms() {
        let test = TestContainer(base: makeAppContainer())
        let here = #_sourceLocation
        assertResolves(Checkout.self, in: test, sourceLocation: here)
        assertResolves(Network.self, to: LiveNetwork.self, in: test, sourceLocation: here)
        assertScope(Network.self, is: .container, in: test, sourceLocation: here)
        assertWiringComplete(test, sourceLocation: here)
        assertWiringComplete(makeAppContainer(), sourceLocation: here)
        assertNoUnusedRegistrations(test, ignoring: [], sourceLocation: here)
        assertRegistered([ServiceKey(Checkout.self)], in: test, sourceLocation: here)
        assertNoFakesUsed(test, sourceLocation: here)
        assertNoWiringWarnings(test, sourceLocation: here)
        assertTraceSnapshot(test.trace, named: "checkout", sourceLocation: here)
        assertWiringSnapshot(test, named: "app", sourceLocation: here)
    }

    /// A helper of your own takes a `sourceLocation` and passes it on: failures point at its caller.
    @Test func aHelperReportsAtItsCaller() {
        func expectCheckout(in test: TestContainer, sourceLocation: SourceLocation = #_sourceLocation) {
            assertResolves(Checkout.self, in: test, sourceLocation: sourceLocation)
        }
        let line = #line + 1
        let failures = expectFailures { expectCheckout(in: TestContainer(base: Container())) }
        #expect(failures.map(\.line) == [line])
    }
}

final class BothModulesXCTests: XCTestCase {
    func testEveryAssertionUnqualified() throws {
        let test = makeTestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        XCTAssertNotNil(assertResolves(Network.self, in: test))
        assertResolves(Network.self, to: FakeNetwork.self, in: test)
        assertScope(Network.self, is: .container, in: test)
        assertWiringComplete(test)
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test)
        assertRegistered([ServiceKey(Checkout.self)], in: test)
        assertNoFakesUsed(test)
        assertNoWiringWarnings(test)
        assertTraceSnapshot(test.trace, named: "checkout")
        assertWiringSnapshot(test, named: "app")
    }
}
