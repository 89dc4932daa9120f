import Foundation
import WiringTestHelpers
import WiringXCTest
import XCTest

// The wiring snapshot under XCTest: recorded when missing, passing when equal, failing with a
// line diff at the caller's line when the wiring changed.

final class WiringSnapshotXCTests: FailureCapturingTestCase {
    private var directory = ""

    override func setUp() {
        super.setUp()
        directory = NSTemporaryDirectory() + "WiringXCTestSnapshots-" + UUID().uuidString
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func testApp() {
        let test = makeTestContainer(base: makeAppContainer())
        assertWiringSnapshot(test, named: "app")   // __Snapshots__/WiringSnapshotXCTests/testApp.app.wiring.txt
    }

    @MainActor
    func testTheAsyncFormRecordsTheManifestOfAsyncFactoriesThenPasses() async throws {
        let container = makeAppContainer()
        container.registerAsync(Logger.self) { _ in ConsoleLogger() }
        let test = makeTestContainer(base: container)
        let failures = await captureFailures {
            await assertWiringSnapshotAsync(test, named: "app", snapshotDirectory: directory, record: true)
        }
        XCTAssertEqual(failures.count, 1)
        let file = directory + "/testTheAsyncFormRecordsTheManifestOfAsyncFactoriesThenPasses.app.wiring.txt"
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        let manifest = await test.wiringManifestAsync()
        XCTAssertEqual(recorded, manifest.render() + "\n")
        XCTAssertFalse(recorded.contains("(unchecked)"))
        await assertWiringSnapshotAsync(test, named: "app", snapshotDirectory: directory)
    }

    func testRecordingWritesTheSnapshotAndFails() throws {
        // `record: true`, not a missing snapshot: that one is not recorded when `CI` is set.
        let test = makeTestContainer(base: makeAppContainer())
        let line = #line + 1
        let failures = captureFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory, record: true) }
        let file = directory + "/testRecordingWritesTheSnapshotAndFails.app.wiring.txt"
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, #filePath)
        XCTAssertEqual(failures.first?.message.hasPrefix("recorded the wiring snapshot, as `record: true`: \(file)"), true)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), test.wiringManifest().render() + "\n")
        // Run again, it matches.
        assertWiringSnapshot(test, named: "app", snapshotDirectory: directory)
    }

    func testFailsWithALineDiff() throws {
        let container = makeAppContainer()
        let test = makeTestContainer(base: container)
        _ = captureFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory, record: true) }
        container.register(Logger.self) { _ in ConsoleLogger() }
        let line = #line + 1
        let failures = captureFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory) }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.message, """
            the manifest does not match the snapshot \(directory)/testFailsWithALineDiff.app.wiring.txt
            (- snapshot, + manifest)
            @@ -1,10 +1,11 @@
            -Wiring manifest: 4 registrations, 0 problems, 0 unchecked
            +Wiring manifest: 5 registrations, 0 problems, 0 unchecked
             
             Cart [.graph] at WiringTestHelpers/AppGraph.swift
               needs Network
             Checkout [.graph] at WiringTestHelpers/AppGraph.swift
               needs Cart
               needs Payments
            +Logger [.graph] at WiringXCTestTests/WiringSnapshotXCTests.swift
             Network [.container] at WiringTestHelpers/AppGraph.swift
             Payments [.graph] at WiringTestHelpers/AppGraph.swift
               needs Network
              fix: if the new manifest is right, run again with WIRING_RECORD_SNAPSHOTS=1 or `record: true` to record it
            """)
    }
}
