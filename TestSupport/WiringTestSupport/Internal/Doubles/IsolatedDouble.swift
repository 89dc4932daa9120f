import Wiring

/// Registers a test double's factory so that it runs in the isolation it was written in: a
/// factory formed in a `@MainActor` test may capture main-actor state, and must not run on
/// whatever thread resolves it.
///
/// - No isolation (a nonisolated test): it runs where the resolve runs, as a plain factory.
/// - The main actor: it is a main-actor factory, as `registerMainActor` makes. A synchronous
///   resolve on the main actor runs it; elsewhere the resolve throws `requires-await` and never
///   runs it; `await test.async.resolve` hops there.
/// - Another actor: a synchronous resolve throws `requires-await`; an awaited one hops there.
enum IsolatedDouble {
    /// Registers `factory` in `container`, to run in `isolation`.
    static func register<Service>(
        _ serviceType: Service.Type, name: String?, file: StaticString, line: UInt, isolation: (any Actor)?,
        in container: Container, factory: @escaping (any Resolver) throws -> Service
    ) -> Registration<Service> {
        // The test vouches for what the factory captures; in an isolation, only that isolation runs it.
        let double = UncheckedSendable(factory)
        guard let isolation else {
            return container.register(serviceType, name: name, file: file, line: line) { resolver in
                try double.value(resolver)
            }
        }
        if isolation === MainActor.shared {
            return container.registerMainActor(serviceType, name: name, file: file, line: line) { resolver in
                try double.value(resolver)
            }.registration
        }
        return container.registerAsync(serviceType, name: name, file: file, line: line) { resolver in
            try await resolver.withSynchronousResolver(isolatedTo: isolation) { try UncheckedSendable(double.value($0)) }.value
        }
    }

    /// Registers `factory`, which takes runtime arguments, in `container`, to run in `isolation`.
    static func register<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, file: StaticString, line: UInt, isolation: (any Actor)?,
        in container: Container, factory: @escaping (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        let double = UncheckedSendableFactory(factory)
        // Local functions: a closure literal cannot take a parameter pack.
        @Sendable func make(_ resolver: any Resolver, _ arguments: repeat each Argument) throws -> Service {
            try double.body(resolver, repeat each arguments)
        }
        guard let isolation else {
            return container.register(serviceType, name: name, file: file, line: line, factory: make)
        }
        if isolation === MainActor.shared {
            return container.registerMainActor(serviceType, name: name, file: file, line: line, factory: make).registration
        }
        @Sendable func makeOnActor(_ resolver: AsyncResolver, _ arguments: repeat each Argument) async throws -> Service {
            let packed = PackedArguments(repeat each arguments)
            let made = try await resolver.withSynchronousResolver(isolatedTo: isolation) { resolver in
                UncheckedSendable(try packed.call(double, with: resolver))
            }
            return made.value
        }
        return container.registerAsync(serviceType, name: name, file: file, line: line, factory: makeOnActor)
    }
}

/// Runtime arguments handed to another isolation, which the test vouches for as it does for the
/// double itself.
private struct PackedArguments<each Argument>: @unchecked Sendable {
    let values: (repeat each Argument)

    init(_ values: repeat each Argument) {
        self.values = (repeat each values)
    }

    /// Calls `double` with `resolver` and these arguments.
    func call<Service>(_ double: UncheckedSendableFactory<Service, repeat each Argument>, with resolver: any Resolver) throws -> Service {
        try double.body(resolver, repeat each values)
    }
}
