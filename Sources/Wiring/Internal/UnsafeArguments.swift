/// The runtime arguments of one resolve: a tuple of the key's argument types, on the stack of
/// the call that made it, passed through the non-generic parts of the engine by address.
///
/// Invariant: valid only inside the `with` call that made it, and read only as the tuple type
/// it was made from. The key of a registration includes its argument types, so the factory
/// found for a key reads exactly the tuple the caller made; debug builds check the type.
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
        assert(tupleType == type, "runtime arguments \(tupleType) read as \(type)")
        return address.assumingMemoryBound(to: Arguments.self).pointee
    }
}
