import WiringTestHelpers
import WiringXCTest
import XCTest

// Each assertion passing, and failing at the caller's file and line with the full text, under XCTest.

final class AssertResolvesXCTests: FailureCapturingTestCase {
    func testReturnsTheInstance() {
        let test = TestContainer(base: makeAppContainer())
        XCTAssertNotNil(assertResolves(Checkout.self, in: test))
        XCTAssertNotNil(assertResolves(Checkout.self, in: makeAppContainer()))
    }

    func testFailsWithTheResolutionError() {
        let test = TestContainer(base: Container())
        var network: (any Network)?
        let line = #line + 1
        let failures = captureFailures { network = assertResolves(Network.self, in: test) }
        XCTAssertNil(network)
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        XCTAssertEqual(
            failures.first?.message, "Network could not be resolved:\n" + indented(resolutionErrorText(Network.self, in: test)))
    }

    func testChecksTheConcreteType() {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        XCTAssertEqual(assertResolves(Network.self, to: FakeNetwork.self, in: test)?.label, "fake")
    }

    func testFailsOnAnotherConcreteType() {
        let test = TestContainer(base: makeAppContainer())
        let line = #line + 1
        let failures = captureFailures { _ = assertResolves(Network.self, to: FakeNetwork.self, in: test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        XCTAssertEqual(failures.first?.message, """
            Network resolved to LiveNetwork, not FakeNetwork
              resolved from: .container, registered at \(siteOf(Network.self, in: test.base))
              fix: override it before it is first resolved, e.g. `test.override(Network.self) { _ in FakeNetwork(…) }`, or expect the type it has
            """)
    }

    /// A helper of your own passes its caller's file and line on, as XCTest helpers do.
    func testAHelperReportsAtItsCaller() {
        func resolveCheckout(in test: TestContainer, file: StaticString = #filePath, line: UInt = #line) {
            assertResolves(Checkout.self, in: test, file: file, line: line)
        }
        let line = #line + 1
        let failures = captureFailures { resolveCheckout(in: TestContainer(base: Container())) }
        XCTAssertEqual(failures.map(\.line), [line])
    }
}

final class AssertScopeXCTests: FailureCapturingTestCase {
    func testPassesForEachScope() {
        let test = TestContainer(base: makeScopedContainer())
        assertScope(Database.self, is: .container, in: test)
        assertScope(RequestContext.self, is: .graph, in: test)
        assertScope(Screen.self, is: .transient, in: test)
        assertScope(Session.self, is: .session, in: test)
    }

    func testFailsWithWhatItObserved() {
        let test = TestContainer(base: makeScopedContainer())
        let line = #line + 1
        let failures = captureFailures { assertScope(Screen.self, is: .container, in: test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        XCTAssertEqual(failures.first?.message, """
            expected Screen to be shared across resolves (.container), but two resolves gave different instances
              observed: it behaves like .transient: a new instance every time
              resolved from: .transient, registered at \(siteOf(Screen.self, in: test.base))
              fix: register Screen with `.scope(.container)`, or expect the scope it behaves like
            """)
    }

    func testChecksARegistrationThatTakesRuntimeArguments() {
        let container = Container()
        container.register(Screen.self) { (_, id: String) in Screen() }
        let test = TestContainer(base: container)
        assertScope(Screen.self, arguments: "A-1", is: .transient, in: test)
        let line = #line + 1
        let failures = captureFailures { assertScope(Screen.self, arguments: "A-1", is: .container, in: test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(
            failures.first?.message.hasPrefix("expected Screen (arguments: String) to be shared across resolves (.container)") == true,
            "\(failures)")
    }

    func testSaysAValueTypeCannotBeChecked() {
        let failures = captureFailures { assertScope(Settings.self, is: .container, in: makeScopedContainer()) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.contains("a value has no identity") == true)
    }
}

final class AssertWiringCompleteXCTests: FailureCapturingTestCase {
    func testPassesForACompleteGraph() {
        assertWiringComplete(TestContainer(base: makeAppContainer()))
        assertWiringComplete(makeAppContainer())
    }

    func testFailsWithTheReport() {
        let container = makeAppContainer()
        container.register(Cart.self) { r in try Cart(network: r.resolve(Network.self, name: "offline")) }
        let line = #line + 1
        let failures = captureFailures { assertWiringComplete(container) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, "\(#filePath)")
        let report = TestContainer(base: container).verifyWiring()
        XCTAssertEqual(failures.first?.message, "the wiring is incomplete:\n" + indented(report.description))
    }
}

final class AssertNoUnusedRegistrationsXCTests: FailureCapturingTestCase {
    func testPassesWhenEverythingWasResolved() throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test)
    }

    func testFailsListingTheUnusedOverride() throws {
        let test = TestContainer(base: makeAppContainer())
        test.wiringFindings(.allow("override-of-unregistered"))
        let overrideLine = #line + 1
        test.override(Database.self) { _ in Database() }
        _ = try test.resolve(Checkout.self)
        let line = #line + 1
        let failures = captureFailures { assertNoUnusedRegistrations(test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            1 registration was never resolved through the test container:
              Database, overridden in layer "test" at \(#fileID):\(overrideLine)
              fix: resolve what the test is about, remove registrations and overrides it does not need, or pass their keys in `ignoring:`
            """)
    }
}

final class AssertRegisteredXCTests: FailureCapturingTestCase {
    func testPassesWhenEveryKeyIsRegistered() {
        assertRegistered([ServiceKey(Network.self), ServiceKey(Checkout.self)], in: makeAppContainer())
    }

    func testFailsListingTheMissingKeys() {
        let line = #line + 1
        let failures = captureFailures { assertRegistered([ServiceKey(Logger.self), ServiceKey(Cart.self)], in: makeAppContainer()) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            1 key is not registered:
              Logger
              fix: register each, e.g. `container.register(Logger.self) { r in … }`
            """)
    }
}

final class AssertNoFakesUsedXCTests: FailureCapturingTestCase {
    func testPassesWhenNoFakeWasUsed() throws {
        let test = makeTestContainer(base: makeAppContainer()) { fakes in
            fakes.register(Analytics.self) { NoopAnalytics() }
        }
        _ = try test.resolve(Checkout.self)
        assertNoFakesUsed(test)
    }

    func testFailsListingTheFakedKeys() throws {
        let test = makeTestContainer(base: makeAppContainer()) { fakes in
            fakes.register(Analytics.self) { NoopAnalytics() }
        }
        _ = try test.resolve(Analytics.self)
        let line = #line + 1
        let failures = captureFailures { assertNoFakesUsed(test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            1 service came from fakes, as nothing registered them or their registration is live-only:
              Analytics
              fix: register them in the app's container, or override them in the test if a double is intended
            """)
    }
}

final class AssertTraceSnapshotXCTests: FailureCapturingTestCase {
    func testCheckout() throws {
        let test = makeTestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        _ = try test.resolve(Checkout.self)
        assertTraceSnapshot(test.trace, named: "checkout")   // __Snapshots__/AssertionXCTests/testCheckout.checkout.txt
    }

    func testFailsWithALineDiff() throws {
        let directory = NSTemporaryDirectory() + "WiringXCTestSnapshots-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let test = makeTestContainer(base: makeAppContainer())
        _ = try test.resolve(Network.self)
        _ = captureFailures { assertTraceSnapshot(test.trace, named: "network", snapshotDirectory: directory, record: true) }
        _ = try test.resolve(Cart.self)
        let line = #line + 1
        let failures = captureFailures { assertTraceSnapshot(test.trace, named: "network", snapshotDirectory: directory) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            the trace does not match the snapshot \(directory)/testFailsWithALineDiff.network.txt
            (- snapshot, + trace)
            @@ -1,1 +1,3 @@
             Network .container new #1
            +Cart .graph new #2
            +└── Network .container cached #1
              fix: if the new trace is right, run again with WIRING_RECORD_SNAPSHOTS=1 or `record: true` to record it
            """)
    }
}
