import Foundation
import Wiring

extension WiringUUIDGenerator {
    /// A generator that makes `00000000-0000-0000-0000-000000000000`, then `…001`, `…002`, and
    /// so on, counting every `UUID` it makes, from any task: what `installSequentialUUIDs()`
    /// installs.
    ///
    /// ```swift
    /// let ids = WiringUUIDGenerator.sequential()
    /// #expect(ids() == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    /// #expect(ids() == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    /// ```
    ///
    /// Each call makes a new generator, counting from zero.
    public static func sequential() -> WiringUUIDGenerator {
        let counter = LockedState<UInt64>(0)
        return WiringUUIDGenerator {
            sequentialUUID(
                counter.withLock { next in
                    defer { next &+= 1 }
                    return next
                })
        }
    }
}

/// The `UUID` whose last 8 bytes are `number`, big-endian: `00000000-0000-0000-0000-000000000001`
/// for 1.
private func sequentialUUID(_ number: UInt64) -> UUID {
    func byte(_ index: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: number >> (8 * (7 - index)))
    }
    return UUID(
        uuid: (
            0, 0, 0, 0, 0, 0, 0, 0,
            byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7)
        ))
}
