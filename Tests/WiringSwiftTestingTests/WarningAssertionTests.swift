import Testing
import WiringSwiftTesting
import WiringTestHelpers

// assertNoWiringWarnings under Swift Testing: silent without warnings, else one issue at the
// caller's source location listing every warning, identifier and message.

/// The app, but with a Cart factory that resolves from the container it captured.
private func makeBypassingAppContainer() -> Container {
    // A child, so that its Cart shadows the app's rather than registering it twice.
    let container = Container(parent: makeAppContainer())
    container.register(Cart.self, file: "App/Setup.swift", line: 7) { [weak container] _ in
        try Cart(network: container!.resolve())
    }
    return container
}

@Suite struct AssertNoWiringWarningsTests {
    @Test func passesWithoutWarnings() throws {
        let test = TestContainer(base: makeAppContainer())
        try test.withOverrides({ layer in layer.override(Network.self) { _ in FakeNetwork() } }) {
            _ = try test.resolve(Checkout.self)
        }

        // The README's example.
        for warning in test.warnings { print(warning.identifier, warning.message) }
        assertNoWiringWarnings(test)                                  // WiringXCTest and WiringSwiftTesting: fails listing them all
    }

    @Test func failsListingEveryWarning() throws {
        let test = TestContainer(base: makeBypassingAppContainer())
        test.wiringFindings(.allow("resolver-bypass", "unbalanced-pop"))
        _ = try test.resolve(Checkout.self)
        let popLine = #line + 1
        test.popLayer()

        let line = #line + 1
        let failures = expectFailures { assertNoWiringWarnings(test) }

        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.fileID == #fileID)
        let lines = failures.first?.message.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 5)
        #expect(lines.first == "the test container noticed 2 warnings:")
        #expect(lines.dropFirst().first?.hasPrefix(
            "  resolver-bypass: the factory of Cart (or an initCompleted hook of it), registered at App/Setup.swift:7, ") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("    fix: resolve through the resolver the factory receives") == true)
        #expect(lines.dropFirst(3).first == """
              unbalanced-pop: popLayer() at \(#fileID):\(popLine) found no layer pushed on this TestContainer, so it did nothing
            """)
        #expect(lines.last?.hasPrefix("    fix: match every popLayer() with a pushLayer(_:)") == true)
    }

    /// A helper of your own takes a `sourceLocation` and passes it on: failures point at its caller.
    @Test func aHelperReportsAtItsCaller() {
        func expectQuiet(_ test: TestContainer, sourceLocation: SourceLocation = #_sourceLocation) {
            assertNoWiringWarnings(test, sourceLocation: sourceLocation)
        }
        let test = TestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("unbalanced-pop"))
        test.popLayer()
        let line = #line + 1
        let failures = expectFailures { expectQuiet(test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message.hasPrefix("the test container noticed 1 warning:\n  unbalanced-pop: ") == true)
    }
}
