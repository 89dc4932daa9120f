/// Adding registrations: factories, factories with runtime arguments and ready instances.
extension Container {
    /// Registers a factory for a type, optionally named.
    ///
    /// Registering a key again replaces the earlier registration (the last one wins).
    ///
    /// ```swift
    /// container.register(Animal.self) { _ in Cat() }
    /// container.register(Animal.self, name: "mimi") { _ in Cat(name: "Mimi") }
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to register; what `resolve` asks for.
    ///   - name: Tells registrations of the same type apart.
    ///   - factory: Makes the instance from a resolver bound to the resolution in progress.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration, to set its scope (the container's ``defaultScope``, `.graph`
    ///   unless the container says otherwise) and hooks.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        add(
            FactoryEntry(
                key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line),
                options: .init(scope: defaultScope), factory: factory))
    }

    /// Registers a factory that takes runtime arguments, which `resolve(_:arguments:)` passes.
    ///
    /// The argument types are part of the key: a registration taking a `String` and one taking
    /// a `String` and a `Bool` are different registrations.
    ///
    /// ```swift
    /// container.register(Animal.self) { (_, name: String) in Cat(name: name) }
    /// let cat = try container.resolve(Animal.self, arguments: "Mew")
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to register; what `resolve` asks for.
    ///   - name: Tells registrations of the same type apart.
    ///   - factory: Makes the instance from a resolver bound to the resolution in progress and
    ///     the runtime arguments.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration. Its scope is `.transient`: a shared instance would ignore
    ///   the arguments of later calls.
    @discardableResult
    @inlinable
    public func register<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        guard key.takesArguments else {
            // Called generically with no arguments: store it as the plain factory it is.
            return register(serviceType, name: name, file: file, line: line) { resolver in
                let none = () as Any as! (repeat each Argument)
                return try factory(resolver, repeat each none)
            }
        }
        // Made where the argument types are known, so that spreading the tuple costs what a
        // hand-written call does; the engine hands it the tuple.
        let tuple = (repeat each Argument).self
        return register(key, arguments: tuple, tuple: tuple, file: file, line: line) { resolver, arguments in
            try factory(resolver, repeat each arguments)
        }
    }

    /// Registers a factory that takes its runtime arguments as one tuple of the key's argument
    /// types: `tuple` is `(repeat each Argument)`, named as one type for the factory's sake.
    @usableFromInline
    package func register<Service, Arguments, each Argument>(
        _ key: ServiceKey, arguments: (repeat each Argument).Type, tuple: Arguments.Type, file: StaticString, line: UInt,
        factory: @escaping @Sendable (any Resolver, Arguments) throws -> Service
    ) -> Registration<Service> {
        add(
            ArgumentFactoryEntry(
                key: key, site: RegistrationSite(file, line), options: .init(scope: .transient),
                arguments: ArgumentAccess(arguments)
            ) { resolver, passed in
                try factory(resolver, passed.read(as: Arguments.self))
            })
    }

    /// Registers a ready-made instance, shared like a `.container` singleton.
    /// - Parameters:
    ///   - serviceType: The type to register it as.
    ///   - name: Tells registrations of the same type apart.
    ///   - instance: The value every resolution returns.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        let value = UncheckedSendable(instance)
        var options = RegistrationEntry.Options(scope: .container)
        options.isReadyInstance = true
        return add(
            FactoryEntry(key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line), options: options) { _ in
                value.value
            })
    }
}
