extension Container {
    /// Registers a type built by an initializer whose parameters are all resolved from the
    /// container. The parameters become the registration's ``Registration/dependencies``, so
    /// tools can draw and check the graph without running any factory.
    ///
    /// ```swift
    /// container.autoregister(Owner.self, initializer: PetOwner.init)   // PetOwner(pet: Animal)
    /// ```
    ///
    /// An optional parameter resolves to `nil` when its type is not registered.
    /// - Parameters:
    ///   - serviceType: The type to register.
    ///   - name: Tells registrations of the same type apart.
    ///   - initializer: Any function whose parameters are the dependencies, usually `Type.init`.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    @discardableResult
    public func autoregister<Service, each Parameter>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) -> Registration<Service> {
        // Resolves each parameter in turn through the resolver the factory is given.
        let direct: @Sendable (any Resolver) throws -> Service = { resolver in
            try initializer(repeat resolver.resolve((each Parameter).self, name: nil))
        }
        return autoregister(serviceType, name: name, file: file, line: line, initializer: initializer, direct: direct)
    }

    func autoregister<Service, each Parameter>(
        _ serviceType: Service.Type,
        name: String?,
        file: StaticString,
        line: UInt,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service,
        direct: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        let parameters = (repeat AutowiredParameter<each Parameter>())
        var dependencies: [Dependency] = []
        for parameter in repeat each parameters {
            dependencies.append(parameter.dependency)
        }
        let key = ServiceKey(serviceType, name: name)
        let options = RegistrationEntry.Options(scope: defaultScope, dependencies: dependencies)
        let site = RegistrationSite(file, line)
        guard dependencies.contains(where: \.isOptional) else {
            // Every parameter is required: resolve each directly, as a hand-written factory would.
            return add(FactoryEntry(key: key, site: site, options: options, factory: direct))
        }
        return add(FactoryEntry(key: key, site: site, options: options) { resolver in
            try initializer(repeat (each parameters).resolve(from: resolver))
        })
    }
}

/// One parameter of an autowired initializer; whether it is optional is worked out once, at
/// registration, not on every resolution.
struct AutowiredParameter<Value>: @unchecked Sendable {
    private let optional: (any OptionalParameter.Type)?

    init() {
        optional = Value.self as? any OptionalParameter.Type
    }

    var dependency: Dependency {
        Dependency(key: ServiceKey(serviceType: optional?.wrappedType ?? Value.self, name: nil, argumentList: NoArguments.self),
                   isOptional: optional != nil)
    }

    func resolve(from resolver: any Resolver) throws -> Value {
        guard let optional else { return try resolver.resolve(Value.self, name: nil) }
        let value = try optional.resolveIfRegistered(from: resolver)
        guard let value = value as? Value else {
            throw TypeMismatch(expected: Value.self, actual: type(of: value))
        }
        return value
    }
}

protocol OptionalParameter {
    static var wrappedType: any Any.Type { get }
    static func resolveIfRegistered(from resolver: any Resolver) throws -> Any
}

extension Optional: OptionalParameter {
    static var wrappedType: any Any.Type { Wrapped.self }

    static func resolveIfRegistered(from resolver: any Resolver) throws -> Any {
        do {
            return Wrapped?.some(try resolver.resolve(Wrapped.self, name: nil)) as Any
        } catch let error as ResolutionError where error.isMissing(ServiceKey(Wrapped.self)) {
            return Wrapped?.none as Any
        }
    }
}

extension ResolutionError {
    /// Whether this says that `key` itself (not something it needs) is not registered.
    package func isMissing(_ key: ServiceKey) -> Bool {
        if case .notRegistered = reason, self.key == key { return true }
        return false
    }
}
