import WiringTestHelpers
import WiringXCTest
import XCTest

// Leaked instances and the new warnings, in XCTest.

private final class XLeakyModel {
    var onChange: (() -> Void)?
    init() { onChange = { _ = self } }
}
private final class XCleanModel {}
private protocol XClient: AnyObject {}
private final class XLiveClient: XClient {}
private struct XNetworkModule: Module {
    func register(in container: Container) {
        container.register((any XClient).self) { _ in XLiveClient() }
    }
}

final class LeakedInstancesXCTests: FailureCapturingTestCase {
    private func makeApp() -> Container {
        let container = Container()
        container.register(XLeakyModel.self) { _ in XLeakyModel() }
        container.register(XCleanModel.self) { _ in XCleanModel() }
        return container
    }

    func testALeakedModelFailsNamingItsPath() throws {
        let test = makeTestContainer(base: makeApp())
        test.isTrackingLeaks = true
        do { _ = try test.resolve(XLeakyModel.self) }
        let line = #line + 1
        let failures = captureFailures { assertNoLeakedInstances(test) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            the test container made 1 instance still alive though it let go of what it kept:
              XLeakyModel #1 (a XLeakyModel), made by XLeakyModel, is still alive though the test container let go of what it kept
              fix: find what still holds each (a closure capturing it strongly, a cycle of strong references) and break it with `[weak self]` or a weak property
            """)
    }

    func testACleanlyReleasedModelPasses() throws {
        let test = makeTestContainer(base: makeApp())
        test.isTrackingLeaks = true
        do { _ = try test.resolve(XCleanModel.self) }
        assertNoLeakedInstances(test)
    }

    func testAssertNoWiringWarningsListsADuplicateRegistration() {
        let test = makeTestContainer(base: Container(modules: [XNetworkModule(), XNetworkModule()]))
        let failures = captureFailures { assertNoWiringWarnings(test) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.contains("duplicate-registration: XClient is registered twice") == true)
    }
}

/// The README's tearDown check, on every test of a class.
final class CheckoutLeakXCTests: XCTestCase {
    private var test: TestContainer!

    override func setUp() {
        super.setUp()
        test = makeTestContainer(base: makeAppContainer())
        test.isTrackingLeaks = true                          // on by default in debug builds only
    }

    func testCheckoutLeavesNothingBehind() throws {
        let checkout = try test.resolve(Checkout.self)
        XCTAssertTrue(checkout.payments.network is LiveNetwork)
    }

    override func tearDown() {
        assertNoLeakedInstances(test)                            // the test's own references are gone by now
        super.tearDown()
    }
}
