/// A registration whose factory takes runtime arguments. The key includes their types, so the
/// entry found for `resolve<Service, each Argument>` is always of exactly this class.
///
/// A kept scope (`.container`, `.weak`, custom) keeps one instance per distinct argument values
/// when every argument type is `Hashable`: each set of values gets an entry of its own (a
/// *variant*, made when first asked for), so claims, publishing and resets work per set of
/// values exactly as they do per registration.
package final class ArgumentFactoryEntry<Service>: TypedEntry<Service>, @unchecked Sendable {
    /// Calls the registered factory with the arguments it reads from a tuple of their types.
    package let factory: @Sendable (any Resolver, UnsafeArguments) throws -> Service
    /// Set for factories that must be awaited: async ones and those isolated to the main actor.
    package let isolatedFactory: IsolatedFactory<Service>?
    /// What the registering call knew of the argument types, for reading them back where only
    /// the key is known; `nil` for entries made where they are not known (forwarding ones).
    package let arguments: ArgumentAccess<Service>?
    /// The arguments as one hashable value, where the scope keeps instances and every argument
    /// type is `Hashable`: a kept instance per distinct values.
    private let identity: (@Sendable (UnsafeArguments) -> AnyHashable)?
    /// The variants made so far, by argument values; only a registration with an `identity`
    /// has them.
    private let variants: LockedState<[AnyHashable: ArgumentFactoryEntry<Service>]>?
    /// For a variant, the entry that made it, which holds it.
    private weak var madeBy: ArgumentFactoryEntry<Service>?

    package init(
        key: ServiceKey, id: Int = RegistrationEntry.nextID(), site: RegistrationSite, options: __owned Options,
        arguments: ArgumentAccess<Service>? = nil, isolatedFactory: IsolatedFactory<Service>? = nil,
        registrationID: Int? = nil, version: Int = 0,
        factory: @escaping @Sendable (any Resolver, UnsafeArguments) throws -> Service
    ) {
        self.factory = factory
        self.isolatedFactory = isolatedFactory
        self.arguments = arguments
        identity = options.scope.lifetime.policy.keepsInstances ? arguments?.makeIdentity() : nil
        variants = identity != nil && registrationID == nil ? LockedState([:]) : nil
        super.init(key: key, id: id, site: site, options: options, registrationID: registrationID, version: version)
    }

    override package func copy(options: __owned Options) -> RegistrationEntry {
        ArgumentFactoryEntry(
            key: key, id: id, site: site, options: options, arguments: arguments, isolatedFactory: isolatedFactory,
            version: version + 1, factory: factory)
    }

    override package func make(_ resolution: Resolution, resolver: any Resolver) throws -> Service {
        guard let arguments = resolution.state.pendingArguments else { throw MissingArguments(key: key) }
        resolution.state.pendingArguments = nil
        return try factory(resolver, arguments)
    }

    override package var isolation: FactoryIsolation? { isolatedFactory?.isolation }

    override package var factoryIsolation: FactoryIsolation? { isolatedFactory?.factoryIsolation }

    override package var keepsOneInstanceForAllArguments: Bool {
        policy.keepsInstances && arguments != nil && identity == nil
    }

    override package var registration: RegistrationEntry? { registrationID == id ? self : madeBy }

    override package var argumentVariants: [RegistrationEntry] {
        variants?.withLock { Array($0.values) } ?? []
    }

    override package func variant(for arguments: UnsafeArguments) -> RegistrationEntry {
        guard let variants, let identify = identity else { return self }
        let identity = identify(arguments)
        if let variant = variants.withLock({ $0[identity] }) { return variant }
        // Made outside the lock, which is a leaf: numbering the variant takes another.
        let made = ArgumentFactoryEntry(
            key: key, site: site, options: options, arguments: self.arguments, isolatedFactory: isolatedFactory,
            registrationID: id, factory: factory)
        made.madeBy = self
        return variants.withLock { variants in
            if let variant = variants[identity] { return variant }
            variants[identity] = made
            return made
        }
    }
}

/// What a registration taking runtime arguments knows of their types, from where it was made:
/// their list, which hands them back as a parameter pack when asked (a closure per use made at
/// registration cost each registration two allocations).
package struct ArgumentAccess<Service>: Sendable {
    private let list: any ArgumentList.Type

    /// Reads tuples of `Argument`s.
    package init<each Argument>(_ arguments: (repeat each Argument).Type) {
        list = ArgumentTypes<repeat each Argument>.listType
    }

    /// What reads the arguments as one hashable value, when every argument type is `Hashable`:
    /// asked only by a registration whose scope keeps instances, since finding that out looks
    /// up a conformance per argument type.
    package func makeIdentity() -> (@Sendable (UnsafeArguments) -> AnyHashable)? {
        list.accept(ArgumentIdentity())
    }

    /// Resolves a key of these argument types with `await`, the arguments given as a tuple.
    package var resolveAsync: @Sendable (AsyncResolver, ServiceKey, UncheckedSendable<Any>) async throws -> Service {
        list.accept(AsyncArgumentResolve<Service>())
    }
}

/// A reader of tuples of the argument types as one hashable value, if every type is `Hashable`.
private struct ArgumentIdentity: ArgumentListVisitor {
    func visit<each Argument>(_ types: repeat (each Argument).Type) -> (@Sendable (UnsafeArguments) -> AnyHashable)? {
        var allHashable = true
        for type in repeat (each Argument).self {
            if !(type is any Hashable.Type) { allHashable = false }
        }
        guard allHashable else { return nil }
        return { arguments in
            let values = arguments.read(as: (repeat each Argument).self)
            var hashable: [AnyHashable] = []
            for value in repeat each values { hashable.append(Self.hashableValue(value)) }
            return AnyHashable(hashable)
        }
    }

    /// A value of a `Hashable` type, as `AnyHashable`; read as its own type, so that a `nil`
    /// optional counts too.
    private static func hashableValue<Value>(_ value: Value) -> AnyHashable {
        func wrap<H: Hashable>(_ type: H.Type) -> AnyHashable {
            guard let value = value as? H else { preconditionFailure("\(Value.self) is Hashable") }
            return AnyHashable(value)
        }
        guard let type = Value.self as? any Hashable.Type else { preconditionFailure("\(Value.self) is Hashable") }
        return wrap(type)
    }
}

/// Resolves a key of the argument types with `await`, the arguments given as a tuple.
private struct AsyncArgumentResolve<Service>: ArgumentListVisitor {
    func visit<each Argument>(
        _ types: repeat (each Argument).Type
    ) -> @Sendable (AsyncResolver, ServiceKey, UncheckedSendable<Any>) async throws -> Service {
        { resolver, key, tuple in
            try await resolver.resolve(key, as: Service.self, arguments: repeat each tuple.read(as: (repeat each Argument).self))
        }
    }
}
