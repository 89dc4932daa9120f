import Foundation

/// Makes `UUID`s: inject it instead of calling `UUID()`, so a test can make them predictable.
///
/// It resolves without a registration, to ``live``:
///
/// ```swift
/// container.register(Order.self) { r in
///     Order(id: try r.resolve(WiringUUIDGenerator.self)())   // a new random UUID, unless a test says otherwise
/// }
/// ```
///
/// A test replaces it like any service; `WiringTestSupport`'s `installSequentialUUIDs()` makes
/// `00000000-0000-0000-0000-000000000000`, then `…001`, `…002`, and so on.
public struct WiringUUIDGenerator: Sendable, Injectable {
    private let make: @Sendable () -> UUID

    /// A generator that calls `make` for every `UUID`.
    ///
    /// ```swift
    /// let fixed = WiringUUIDGenerator { UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")! }
    /// ```
    /// - Parameter make: Makes the next `UUID`; it may be called from any thread.
    public init(_ make: @escaping @Sendable () -> UUID) {
        self.make = make
    }

    /// The generator used when nothing is registered: ``live``.
    ///
    /// ```swift
    /// let ids = try container.resolve(WiringUUIDGenerator.self)   // no registration needed
    /// ```
    public init(resolver: any Resolver) {
        self = .live
    }

    /// Makes the next `UUID`.
    ///
    /// ```swift
    /// let id = try resolver.resolve(WiringUUIDGenerator.self)()
    /// ```
    public func callAsFunction() -> UUID {
        make()
    }

    /// Random `UUID`s, from `UUID()`.
    ///
    /// ```swift
    /// container.register(WiringUUIDGenerator.self) { _ in .live }
    /// ```
    public static let live = WiringUUIDGenerator { UUID() }
}

/// Tells the current date: inject it instead of calling `Date()`, so a test can fix it.
///
/// It resolves without a registration, to ``live``:
///
/// ```swift
/// container.register(Receipt.self) { r in
///     Receipt(issued: try r.resolve(WiringDateGenerator.self)())   // now, unless a test says otherwise
/// }
/// ```
///
/// A test replaces it like any service; `WiringTestSupport`'s `installFixedDate(_:)` makes it
/// always tell the same date.
public struct WiringDateGenerator: Sendable, Injectable {
    private let now: @Sendable () -> Date

    /// A generator that calls `now` every time it is asked for the date.
    ///
    /// ```swift
    /// let epoch = WiringDateGenerator { Date(timeIntervalSince1970: 0) }
    /// ```
    /// - Parameter now: Tells the current date; it may be called from any thread.
    public init(_ now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The generator used when nothing is registered: ``live``.
    ///
    /// ```swift
    /// let clock = try container.resolve(WiringDateGenerator.self)   // no registration needed
    /// ```
    public init(resolver: any Resolver) {
        self = .live
    }

    /// The current date.
    ///
    /// ```swift
    /// let issued = try resolver.resolve(WiringDateGenerator.self)()
    /// ```
    public func callAsFunction() -> Date {
        now()
    }

    /// The system's date, from `Date()`.
    ///
    /// ```swift
    /// container.register(WiringDateGenerator.self) { _ in .live }
    /// ```
    public static let live = WiringDateGenerator { Date() }
}
