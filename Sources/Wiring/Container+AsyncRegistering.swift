extension Container {
    /// Registers a factory that needs `await`, such as a service that connects before it is usable.
    /// Resolve it with `try await container.async.resolve(…)` or from another async factory.
    ///
    /// ```swift
    /// container.registerAsync(Database.self) { r in
    ///     try await Database.connect(to: r.resolve(DatabaseURL.self))
    /// }
    /// .scope(.container)
    /// let database = try await container.async.resolve(Database.self)
    /// ```
    ///
    /// Scopes, paths and errors work as for synchronous factories; a `.container` instance is
    /// made once even when many tasks ask for it at the same time. Inside the factory, `r` is an
    /// ``AsyncResolver``: `try await r.resolve(…)` resolves any dependency, async or not.
    @discardableResult
    public func registerAsync<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver) async throws -> Service
    ) -> Registration<Service> {
        add(
            FactoryEntry(
                key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line),
                options: .init(scope: defaultScope), isolatedFactory: .async { resolver, _ in try await factory(resolver) }
            ) { _ in throw NeedsAwait(isMainActor: false) })
    }

    /// Registers an async factory that takes runtime arguments, which
    /// `container.async.resolve(_:arguments:)` passes; spelled like `register`'s.
    ///
    /// ```swift
    /// container.registerAsync(RequestHandler.self) { (r, requestID: String, userID: Int) in
    ///     try await RequestHandler(id: requestID, user: userID, repository: r.resolve())
    /// }
    /// let handler = try await container.async.resolve(RequestHandler.self, arguments: "r-1", 42)
    /// ```
    ///
    /// Its scope is `.transient`; a kept scope keeps one instance per distinct arguments when
    /// their types are all `Hashable`.
    @discardableResult
    public func registerAsync<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolver, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        let isolated = IsolatedFactory<Service>.async { resolver, tuple in
            try await factory(resolver, repeat each tuple.read(as: (repeat each Argument).self))
        }
        guard key.takesArguments else {
            return add(
                FactoryEntry(
                    key: key, site: RegistrationSite(file, line), options: .init(scope: defaultScope),
                    isolatedFactory: isolated
                ) { _ in throw NeedsAwait(isMainActor: false) })
        }
        return add(
            ArgumentFactoryEntry(
                key: key, site: RegistrationSite(file, line), options: .init(scope: .transient),
                arguments: ArgumentAccess((repeat each Argument).self), isolatedFactory: isolated
            ) { _, _ in throw NeedsAwait(isMainActor: false) })
    }

    /// Registers a factory isolated to the main actor, for view models and other main-actor types.
    ///
    /// Main-actor code resolves it synchronously, as usual; code elsewhere uses
    /// `try await container.async.resolve(…)`, which runs the factory on the main actor. A
    /// synchronous resolve off the main thread throws a `ResolutionError` saying so.
    ///
    /// ```swift
    /// container.registerMainActor(CheckoutViewModel.self) { r in
    ///     try CheckoutViewModel(cart: r.resolve())
    /// }
    /// ```
    @discardableResult
    public func registerMainActor<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (any Resolver) throws -> Service
    ) -> MainActorRegistration<Service> {
        MainActorRegistration(add(
            FactoryEntry(
                key: ServiceKey(serviceType, name: name), site: RegistrationSite(file, line),
                options: .init(scope: defaultScope), isolatedFactory: .mainActor { resolver, _ in try factory(resolver) }
            ) { resolver in
                try Self.onMainActor { try factory(resolver) }
            }))
    }

    /// Registers a main-actor factory that takes runtime arguments, spelled like `register`'s:
    /// resolved with `resolve(_:arguments:)` on the main actor, and with
    /// `container.async.resolve(_:arguments:)` from anywhere (which hops to the main actor).
    ///
    /// ```swift
    /// container.registerMainActor(ProductViewModel.self) { (r, id: String, page: Int?) in
    ///     try ProductViewModel(id: id, page: page, catalog: r.resolve())
    /// }
    /// let viewModel = try container.resolve(ProductViewModel.self, arguments: "p-1", Int?.none)
    /// ```
    ///
    /// Its scope is `.transient`; a kept scope keeps one instance per distinct arguments when
    /// their types are all `Hashable`.
    @discardableResult
    public func registerMainActor<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> MainActorRegistration<Service> {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        let isolated = IsolatedFactory<Service>.mainActor { resolver, tuple in
            try factory(resolver, repeat each tuple.read(as: (repeat each Argument).self))
        }
        guard key.takesArguments else {
            return MainActorRegistration(add(
                FactoryEntry(
                    key: key, site: RegistrationSite(file, line), options: .init(scope: defaultScope),
                    isolatedFactory: isolated
                ) { resolver in
                    try Self.onMainActor { try factory(resolver, repeat each UncheckedSendable<Any>(()).read(as: (repeat each Argument).self)) }
                }))
        }
        return MainActorRegistration(add(
            ArgumentFactoryEntry(
                key: key, site: RegistrationSite(file, line), options: .init(scope: .transient),
                arguments: ArgumentAccess((repeat each Argument).self), isolatedFactory: isolated
            ) { resolver, arguments in
                let values = UncheckedSendable(arguments.read(as: (repeat each Argument).self))
                return try Self.onMainActor { try factory(resolver, repeat each values.value) }
            }))
    }

    /// Runs a main-actor factory from a synchronous resolve, which must be on the main actor.
    private static func onMainActor<Service>(_ factory: @MainActor () throws -> Service) throws -> Service {
        guard MainQueue.isCurrent else { throw NeedsAwait(isMainActor: true) }
        return try MainActor.assumeIsolated { UncheckedSendable(try factory()) }.value
    }

    // `container.async` is every resolver's `async` (`Resolver.async`): a container is a
    // resolution source, so it gives the same `AsyncResolver` this property used to.
}
