/// The runtime arguments of one resolve: a tuple of the key's argument types, on the stack of
/// the call that made it, passed through the non-generic parts of the engine by address.
///
/// Invariant: valid only inside the `with` call that made it, and read only as the tuple type
/// it was made from (checked in every build: a metatype comparison). The key of a registration
/// includes its argument types, so the factory found for a key reads exactly the tuple the
/// caller made. The one obligation left to callers, not to keep one past its `with` call, is
/// carried by the three calls of `with` (`Container.resolve(_:as:arguments:)`,
/// `Resolution.resolve(_:as:found:arguments:)` and the async step's variant lookup in
/// `Resolution.resolveAsync`), each of which passes it down calls that return before it does;
/// the step keeps it in `pendingArguments` only until its factory returns.
package struct UnsafeArguments {
    let address: UnsafeRawPointer, tupleType: Any.Type

    init(address: UnsafeRawPointer, tupleType: Any.Type) {
        (self.address, self.tupleType) = (address, tupleType)
    }

    /// Runs `body` with `arguments`, a tuple of the runtime arguments, passed by address.
    package static func with<Arguments, Result>(
        _ arguments: inout Arguments, _ body: (UnsafeArguments) throws -> Result
    ) rethrows -> Result {
        try withUnsafePointer(to: &arguments) { try body(UnsafeArguments(address: $0, tupleType: Arguments.self)) }
    }

    /// A copy of the arguments, which must be a tuple of `type`.
    package func read<Arguments>(as type: Arguments.Type) -> Arguments {
        precondition(tupleType == type, "runtime arguments \(tupleType) read as \(type)")
        return address.assumingMemoryBound(to: Arguments.self).pointee
    }
}
