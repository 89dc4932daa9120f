extension RegistrationEntry {
    /// Runs the factory of this entry, the `TypedEntry` that makes `Service`s, reached without
    /// a dynamic cast and borrowed (the cast reference would otherwise be retained for the call).
    ///
    /// Invariant: every entry is a `TypedEntry` of its key's type (the registering calls make
    /// them so), and a step asks for the type of the key it resolves. Debug builds check both
    /// on every call.
    func make<Service>(in resolution: Resolution, as serviceType: Service.Type) throws -> Service {
        assert(self is TypedEntry<Service>, "the registration of \(key) does not make a \(Service.self)")
        return try Unmanaged.passUnretained(self)._withUnsafeGuaranteedRef {
            try unsafeDowncast($0, to: TypedEntry<Service>.self).make(resolution)
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
