import WiringTestHelpers
import WiringXCTest
import XCTest

// assertNoWiringWarnings under XCTest: silent without warnings, else one failure at the caller's
// line listing every warning, identifier and message.

/// The app, but with a Cart factory that resolves from the container it captured.
private func makeBypassingAppContainer() -> Container {
    // A child, so that its Cart shadows the app's rather than registering it twice.
    let container = Container(parent: makeAppContainer())
    container.register(Cart.self, file: "App/Setup.swift", line: 7) { [weak container] _ in
        try Cart(network: container!.resolve())
    }
    return container
}

final class AssertNoWiringWarningsXCTests: FailureCapturingTestCase {
    func testPassesWithoutWarnings() throws {
        let test = makeTestContainer(base: makeAppContainer())
        test.pushLayer("offline").override(Network.self) { _ in FakeNetwork(label: "offline") }
        _ = try test.resolve(Checkout.self)
        test.popLayer()
        assertNoWiringWarnings(test)
    }

    func testFailsListingEveryWarning() throws {
        let test = makeTestContainer(base: makeBypassingAppContainer())
        test.wiringFindings(.allow("unbalanced-pop", "resolver-bypass"))
        let overrideLine = #line + 1
        test.override(Network.self) { _ in FakeNetwork() }
        let popLine = #line + 1
        test.popLayer()
        _ = try test.resolve(Checkout.self)

        let line = #line + 1
        let failures = captureFailures { assertNoWiringWarnings(test) }

        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        XCTAssertEqual(failures.first?.message, """
            the test container noticed 2 warnings:
              unbalanced-pop: popLayer() at \(#fileID):\(popLine) found no layer pushed on this TestContainer, so it did nothing
                fix: match every popLayer() with a pushLayer(_:) on the same test container; prefer `test.withOverrides({ layer in … }) { … }`, which removes its layer itself
              resolver-bypass: the factory of Cart (or an initCompleted hook of it), registered at App/Setup.swift:7, resolved Network from a container it captured instead of through the resolver it receives, so it missed the override of Network in layer "test" at \(#fileID):\(overrideLine)
                fix: resolve through the resolver the factory receives, as in `register(Cart.self) { r in … try r.resolve() … }`, not through a captured container
            """)
    }

    func testFailsWithOneWarning() {
        let test = makeTestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        test.popLayer()
        let failures = captureFailures { assertNoWiringWarnings(test) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.hasPrefix("the test container noticed 1 warning:\n  unbalanced-pop: ") == true)
    }

    /// A helper of your own passes its caller's file and line on, as XCTest helpers do.
    func testAHelperReportsAtItsCaller() {
        func checkQuiet(_ test: TestContainer, file: StaticString = #filePath, line: UInt = #line) {
            assertNoWiringWarnings(test, file: file, line: line)
        }
        let test = makeTestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        test.popLayer()
        let line = #line + 1
        let failures = captureFailures { checkQuiet(test) }
        XCTAssertEqual(failures.map(\.line), [line])
    }
}
