/// A value one thread at a time reads and writes without dynamic exclusivity checks (a test
/// container's recorder writes its log twice per step: checked, a quarter of a recorded
/// resolve's time). Invariant: an access never begins inside another, nor on another thread
/// unless a lock orders the two. Debug builds stop an access that begins inside another.
@usableFromInline package final class UnsafeExclusiveValue<Value> {
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline @exclusivity(unchecked) var isInAccess = false
    @inlinable package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, which it may change.
    @inlinable package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if DEBUG
        precondition(!isInAccess, "an access to a \(Value.self) began inside another")
        isInAccess = true
        defer { isInAccess = false }
        #endif
        return try body(&value)
    }
}
