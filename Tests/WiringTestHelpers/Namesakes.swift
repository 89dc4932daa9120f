import Foundation

// Stand-ins for the types of the same name in swift-clocks (TestClock, ImmediateClock) and
// swift-dependencies (UUIDGenerator, DateGenerator). A test module that imports them beside
// Wiring's test support and writes them unqualified compiles only while Wiring's own doubles
// are named apart: two imported types of one name are ambiguous for type lookup.

/// Named as swift-clocks' `TestClock`.
public struct TestClock: Sendable {
    public let label: String
    public init(label: String) { self.label = label }
}

/// Named as swift-clocks' `ImmediateClock`.
public struct ImmediateClock: Sendable {
    public let label: String
    public init(label: String) { self.label = label }
}

/// Named as swift-dependencies' `UUIDGenerator`.
public struct UUIDGenerator: Sendable {
    public let make: @Sendable () -> UUID
    public init(_ make: @escaping @Sendable () -> UUID) { self.make = make }
}

/// Named as swift-dependencies' `DateGenerator`.
public struct DateGenerator: Sendable {
    public let now: @Sendable () -> Date
    public init(_ now: @escaping @Sendable () -> Date) { self.now = now }
}
