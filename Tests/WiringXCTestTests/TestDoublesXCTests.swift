import Foundation
import WiringXCTest
import XCTest

// The ready-made clock and UUIDs work in an XCTest test as in a Swift Testing one.

final class TestDoublesXCTests: XCTestCase {
    func testTheTestClockAndSequentialUUIDsInstallInATestContainer() async throws {
        let base = Container()
        base.register((any Clock<Duration>).self) { _ in ContinuousClock() }
        let test = makeTestContainer(base: base)
        let clock = test.installTestClock()
        test.installSequentialUUIDs()

        let ids = try test.resolve(WiringUUIDGenerator.self)
        XCTAssertEqual(ids().uuidString, "00000000-0000-0000-0000-000000000000")
        XCTAssertEqual(ids().uuidString, "00000000-0000-0000-0000-000000000001")

        let appClock = try test.resolve((any Clock<Duration>).self)
        let sleeper = Task { try await appClock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(10))
        try await sleeper.value
        XCTAssertEqual(clock.sleeperCount, 0)

        XCTAssertEqual(
            test.trace.render(),
            """
            WiringUUIDGenerator .container new #1 (override "test")
            \(ServiceKey((any Clock<Duration>).self)) .container new #2 (override "test")
            """)
    }
}
