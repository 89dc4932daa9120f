import WiringTestHelpers
import WiringXCTest
import XCTest

// makeTestContainer and pushLayer(_:on:) pop what the test pushed at teardown, even when it fails.

final class MakeTestContainerTests: FailureCapturingTestCase {
    private var test: TestContainer?

    func testPopsEveryLayerAtTeardown() throws {
        let test = makeTestContainer(base: makeAppContainer())
        self.test = test
        test.pushLayer("offline").override(Network.self) { _ in FakeNetwork(label: "offline") }
        test.pushLayer("slow")
        XCTAssertEqual(try test.resolve(Network.self).label, "offline")
        XCTAssertEqual(test.layerNames, ["offline", "slow"])
    }

    func testPopsEvenWhenTheTestFailsAndThrows() throws {
        let test = makeTestContainer(base: makeAppContainer())
        self.test = test
        test.pushLayer("failing")
        // The test fails (the failure is captured) and throws: the teardown still pops the layer.
        _ = captureFailures { XCTFail("a failing test") }
        _ = captureFailures { assertResolves(Logger.self, in: test) }
        throw ExpectedError()
    }

    func testInstallsFakes() throws {
        let test = makeTestContainer(base: makeAppContainer()) { fakes in
            fakes.register(Analytics.self) { NoopAnalytics() }
        }
        XCTAssertTrue(try test.resolve(Analytics.self) is NoopAnalytics)
        XCTAssertEqual(test.fakes.fakedKeys, [ServiceKey(Analytics.self)])
    }

    override func tearDown() {
        // Teardown blocks run before tearDown().
        XCTAssertEqual(test?.layerNames ?? [], [])
        test = nil
        super.tearDown()
    }

    // A thrown error is recorded as a failure; this one is expected.
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard !description.contains("ExpectedError") else { return }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    private struct ExpectedError: Error {}
}

final class PushLayerOnSharedContainerTests: XCTestCase {
    private static let shared = TestContainer(base: makeAppContainer())

    func testTheLayerIsPoppedAtTeardown() throws {
        let offline = pushLayer("offline", on: Self.shared)
        offline.override(Network.self) { _ in FakeNetwork(label: "offline") }
        pushLayer("inner", on: Self.shared)
        Self.shared.pushLayer("pushed directly")
        XCTAssertEqual(try Self.shared.resolve(Network.self).label, "offline")
        XCTAssertEqual(Self.shared.layerNames, ["offline", "inner", "pushed directly"])
    }

    override func tearDown() {
        // Teardown blocks run before tearDown(): what the next test sharing the container sees,
        // checked in the test that pushed (not in another test, which may run first or alone).
        XCTAssertEqual(Self.shared.layerNames, [])
        XCTAssertEqual(try Self.shared.resolve(Network.self).label, "live")
        super.tearDown()
    }
}
