extension RegistrationEntry {
    /// Runs `body` with this entry as the `TypedEntry` that makes `Service`s, without a dynamic
    /// cast.
    ///
    /// Invariant: every entry is a `TypedEntry` of its key's type (the registering calls make
    /// them so), and a step asks for the type of the key it resolves. Debug builds check both
    /// on every call.
    func withTyped<Service, Result>(
        as serviceType: Service.Type, _ body: (TypedEntry<Service>) throws -> Result
    ) rethrows -> Result {
        assert(self is TypedEntry<Service>, "the registration of \(key) does not make a \(Service.self)")
        // Borrowed: the cast reference would otherwise be retained for the call.
        return try Unmanaged.passUnretained(self)._withUnsafeGuaranteedRef {
            try body(unsafeDowncast($0, to: TypedEntry<Service>.self))
        }
    }
}

/// The instance `box` keeps, read without a dynamic cast (which would look up the metadata of
/// `InstanceBox<Service>` at run time).
///
/// Invariant: `box` is an `InstanceBox<Service>`: what a store keeps for a registration of
/// `Service` in a scope that does not hold weakly (checked in debug builds).
func keptValue<Service>(_ box: AnyObject, as serviceType: Service.Type) -> Service {
    assert(box is InstanceBox<Service>, "a kept \(type(of: box)) was read as \(Service.self)")
    return unsafeDowncast(box, to: InstanceBox<Service>.self).value
}
