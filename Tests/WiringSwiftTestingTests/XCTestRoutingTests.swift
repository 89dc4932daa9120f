import Testing
import WiringSwiftTesting
import WiringTestHelpers
import XCTest

// WiringSwiftTesting's assertions fail an XCTest test too: at the caller's file and line, with the full text.

final class WiringSwiftTestingUnderXCTestTests: XCTestCase {
    private var captured: [(message: String, filePath: String, line: Int)]?

    func testPassingAssertionsRecordNothing() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        XCTAssertNotNil(assertResolves(Network.self, to: FakeNetwork.self, in: test))
        assertScope(Network.self, is: .container, in: test)
        assertWiringComplete(test)
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test)
        assertRegistered([ServiceKey(Checkout.self)], in: test)
        assertNoFakesUsed(test)
    }

    func testEachAssertionFailsTheTestAtTheCallersLine() throws {
        let empty = TestContainer(base: Container())
        empty.fakes.register(Analytics.self) { NoopAnalytics() }
        _ = try empty.resolve(Analytics.self)
        let broken = Container()
        broken.register(Cart.self) { r in try Cart(network: r.resolve()) }
        let unused = TestContainer(base: makeAppContainer())
        let directory = NSTemporaryDirectory() + "WiringRouting-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        captured = []
        let first = #line + 1
        _ = assertResolves(Network.self, in: empty)
        _ = assertResolves(Analytics.self, to: Int.self, in: empty)
        assertScope(Database.self, is: .container, in: empty)
        assertWiringComplete(broken)
        assertNoUnusedRegistrations(unused)
        assertRegistered([ServiceKey(Database.self)], in: empty)
        assertNoFakesUsed(empty)
        assertTraceSnapshot(empty.trace, named: "recorded", snapshotDirectory: directory, record: true)
        let failures = captured ?? []
        captured = nil
        XCTAssertEqual(failures.map(\.line), Array(first..<first + 8))
        XCTAssertTrue(failures.allSatisfy { $0.filePath == "\(#filePath)" })
        XCTAssertEqual(failures.map { String($0.message.prefix(while: { $0 != "\n" })) }, [
            "Network could not be resolved:",
            "Analytics resolved to NoopAnalytics, not Int",
            "cannot check that Database is .container: it could not be resolved:",
            "the wiring is incomplete:",
            "4 registrations were never resolved through the test container:",
            "1 key is not registered:",
            "1 service came from fakes, as nothing registered them or their registration is live-only:",
            "recorded the trace snapshot, as `record: true`: \(directory)/testEachAssertionFailsTheTestAtTheCallersLine.recorded.txt",
        ])
    }

    /// The `sourceLocation:` forms, in an XCTest run, put the location in the message.
    func testASourceLocationIsNamedInTheMessage() {
        captured = []
        let location = SourceLocation(fileID: "App/Helpers.swift", filePath: "/src/App/Helpers.swift", line: 7, column: 3)
        assertRegistered([ServiceKey(Database.self)], in: Container(), sourceLocation: location)
        let failures = captured ?? []
        captured = nil
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.hasPrefix("/src/App/Helpers.swift:7: 1 key is not registered:") == true)
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard captured != nil else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        let message = description.hasPrefix("failed - ") ? String(description.dropFirst("failed - ".count)) : description
        captured?.append((message, filePath, lineNumber))
    }
}
