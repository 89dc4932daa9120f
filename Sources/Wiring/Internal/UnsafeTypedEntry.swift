extension RegistrationEntry {
    /// This entry as the `TypedEntry` that makes `Service`s, without a dynamic cast.
    ///
    /// Invariant: every entry is a `TypedEntry` of its key's type (the registering calls make
    /// them so), and a step asks for the type of the key it resolves. Debug builds check both
    /// on every call.
    func typed<Service>(as serviceType: Service.Type) -> TypedEntry<Service> {
        assert(self is TypedEntry<Service>, "the registration of \(key) does not make a \(Service.self)")
        return unsafeDowncast(self, to: TypedEntry<Service>.self)
    }
}
