import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// TestClock, ImmediateClock, UUIDGenerator and DateGenerator come from another module here, as
// from swift-clocks or swift-dependencies. Written unqualified where a type is expected, beside
// Wiring's imports, each must name that module's type alone, or this file stops compiling with
// "'TestClock' is ambiguous for type lookup". (An expression such as `TestClock(label:)` would
// not notice: the type checker picks the candidate whose initializer fits.)

@Suite(.timeLimit(.minutes(4))) struct ImportedTypeNamesTests {
    @Test func anotherModulesNamesakesResolveBesideWiringsDoubles() throws {
        let appID = UUID(uuidString: "B0000000-0000-0000-0000-00000000000B")!
        let container = Container()
        container.register(UUIDGenerator.self) { _ in UUIDGenerator { appID } }
        container.register(DateGenerator.self) { _ in DateGenerator { Date(timeIntervalSince1970: 60) } }
        container.register(TestClock.self) { _ in TestClock(label: "imported test clock") }
        container.register(ImmediateClock.self) { _ in ImmediateClock(label: "imported immediate clock") }
        let test = TestContainer(base: container)
        let sequentialIDs: WiringUUIDGenerator = test.installSequentialUUIDs()
        test.installFixedDate(Date(timeIntervalSince1970: 0))

        let ids: UUIDGenerator = try test.resolve(UUIDGenerator.self)
        let dates: DateGenerator = try test.resolve(DateGenerator.self)
        let testClock: TestClock = try test.resolve(TestClock.self)
        let immediateClock: ImmediateClock = try test.resolve(ImmediateClock.self)
        #expect(ids.make() == appID)
        #expect(dates.now() == Date(timeIntervalSince1970: 60))
        #expect(testClock.label == "imported test clock")
        #expect(immediateClock.label == "imported immediate clock")

        #expect(sequentialIDs().uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(try test.resolve(WiringUUIDGenerator.self)().uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(try test.resolve(WiringDateGenerator.self)() == Date(timeIntervalSince1970: 0))
    }
}
