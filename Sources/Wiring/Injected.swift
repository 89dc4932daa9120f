/// A property resolved when its owner is created, from `Container.current` (else `Container.shared`).
///
/// ```swift
/// final class CheckoutScreen {
///     @Injected var payments: Payments
///     @Injected(name: "audit") var log: Logger
/// }
/// let screen = Container.withCurrent(container) { CheckoutScreen() }
/// ```
///
/// A property cannot throw, so reading a property whose resolution failed stops the program
/// with the full ``ResolutionError``. To handle the failure instead, read the projected value:
/// `try $payments.get()`.
@propertyWrapper
public struct Injected<Service> {
    private let result: Result<Service, ResolutionError>

    /// Resolves the service now.
    /// - Parameters:
    ///   - name: The name of the registration, if any.
    ///   - file: Where the property is declared, for reports; leave the default.
    ///   - line: The line of the property; leave the default.
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        result = ResolutionThread.inRunningAsyncFactory {
            let result = Result { () throws(ResolutionError) in
                try resolveInjected(Service.self, name: name, from: Container.injectionResolver)
            }
            // Inside a factory, the registration's check learns of a need nothing answers: the
            // factory goes on, and only reading the property would fail.
            if case .failure(let error) = result {
                ResolutionThread.notePropertyInjectionFailure(error, declaredAt: RegistrationSite(file, line))
            }
            return result
        }
    }

    /// The resolved service.
    public var wrappedValue: Service {
        switch result {
        case .success(let service): return service
        case .failure(let error): fatalError("@Injected(\(error.key)) could not be resolved:\n\(error)")
        }
    }

    /// The outcome of the resolution, to handle a failure without stopping: `try $service.get()`.
    public var projectedValue: Result<Service, ResolutionError> { result }
}

/// A property resolved on first access, from the container that was current when its owner was
/// created. Safe to read from several threads: it resolves once.
///
/// ```swift
/// final class Settings {
///     @LazyInjected var store: KeyValueStore     // resolved when first read
/// }
/// ```
///
/// As with ``Injected``, reading a property whose resolution failed stops the program with the
/// full error; `try $store.value` throws it instead.
@propertyWrapper
public struct LazyInjected<Service>: Sendable {
    private let lazy: Lazy<Service>

    /// Captures the current container; resolves on first access.
    /// - Parameter name: The name of the registration, if any.
    public init(name: String? = nil) {
        if let running = ResolutionThread.runningSource {
            // Made by a factory: resolves from its container when read, held weakly, as a
            // `Lazy` a factory resolves is, since a kept instance must not keep its container.
            lazy = Lazy(WeakSource(running, graph: nil), name: name)
        } else if let resolver = Container.injectionResolver {
            lazy = Lazy(resolver, name: name)
        } else {
            lazy = Lazy(unbound: name)
        }
    }

    /// The service, resolved on first access.
    public var wrappedValue: Service {
        do {
            return try lazy.value
        } catch {
            fatalError("@LazyInjected(\(error.key)) could not be resolved:\n\(error)")
        }
    }

    /// The underlying ``Lazy``: `try $service.value` throws instead of stopping.
    public var projectedValue: Lazy<Service> { lazy }
}

private func resolveInjected<Service>(
    _ serviceType: Service.Type, name: String?, from resolver: (any Resolver)?
) throws(ResolutionError) -> Service {
    guard let resolver else { throw ResolutionError.noContainer(for: ServiceKey(serviceType, name: name)) }
    return try resolver.resolveTyped(serviceType, name: name)
}
