import Foundation
import Testing
import WiringSwiftTesting
import WiringXCTest

// Apps, swift-clocks and swift-dependencies name their types TestClock, ImmediateClock,
// UUIDGenerator and DateGenerator. A test module that declares them at its top level, beside the
// helpers, writes them unqualified, registers and resolves them as its own, and still reaches
// Wiring's doubles by their own names. (The module's own declarations shadow imported ones; when
// the namesakes come from another module, ImportedTypeNamesTests in WiringTestSupportTests is
// the check that fails to compile on a collision.)

/// The app's own test clock, named as swift-clocks names its.
struct TestClock: Sendable {
    let label: String
}

/// The app's own immediate clock, named as swift-clocks names its.
struct ImmediateClock: Sendable {
    let label: String
}

/// The app's own UUID maker, named as swift-dependencies names its.
struct UUIDGenerator: Sendable {
    let make: @Sendable () -> UUID
}

/// The app's own date teller, named as swift-dependencies names its.
struct DateGenerator: Sendable {
    let now: @Sendable () -> Date
}

@Suite(.timeLimit(.minutes(4))) struct OwnTypeNamesTests {
    static let appID = UUID(uuidString: "A0000000-0000-0000-0000-00000000000A")!
    static let appDate = Date(timeIntervalSince1970: 86_400)

    /// An app that registers its own namesakes and a real clock.
    static func makeApp() -> Container {
        let container = Container()
        container.register(UUIDGenerator.self) { _ in UUIDGenerator { appID } }
        container.register(DateGenerator.self) { _ in DateGenerator { appDate } }
        container.register(TestClock.self) { _ in TestClock(label: "the app's test clock") }
        container.register(ImmediateClock.self) { _ in ImmediateClock(label: "the app's immediate clock") }
        container.register((any Clock<Duration>).self) { _ in ContinuousClock() }
        return container
    }

    @Test func theAppsOwnTypesResolveAsRegisteredBesideWiringsDoubles() async throws {
        let test = TestContainer(base: Self.makeApp())
        let sequentialIDs: WiringUUIDGenerator = test.installSequentialUUIDs()
        let clock: WiringTestClock = test.installTestClock()
        test.installFixedDate(Date(timeIntervalSince1970: 0))

        // The app's own, as it registered them: Wiring's doubles replace only Wiring's types.
        let ids: UUIDGenerator = try test.resolve(UUIDGenerator.self)
        let dates: DateGenerator = try test.resolve(DateGenerator.self)
        let testClock: TestClock = try test.resolve(TestClock.self)
        let immediateClock: ImmediateClock = try test.resolve(ImmediateClock.self)
        #expect(ids.make() == Self.appID)
        #expect(dates.now() == Self.appDate)
        #expect(testClock.label == "the app's test clock")
        #expect(immediateClock.label == "the app's immediate clock")

        // Wiring's, by their own names.
        #expect(try test.resolve(WiringUUIDGenerator.self)().uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(sequentialIDs().uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(try test.resolve(WiringDateGenerator.self)() == Date(timeIntervalSince1970: 0))
        let appClock = try test.resolve((any Clock<Duration>).self)
        #expect(appClock as? WiringTestClock === clock)
        let sleeper = Task { try await appClock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now == WiringTestClock.Instant(offset: .seconds(1)))
    }
}
