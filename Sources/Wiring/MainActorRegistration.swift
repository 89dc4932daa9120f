/// A registration made with `registerMainActor`: as a ``Registration``, but its
/// ``initCompleted(_:)`` hooks run on the main actor, as its factory does, and are typed so.
///
/// ```swift
/// container.registerMainActor(CheckoutViewModel.self) { r in try CheckoutViewModel(cart: r.resolve()) }
///     .scope(.container)
///     .initCompleted { r, model in model.router = try? r.resolve(Router.self) }   // on the main actor
/// ```
public struct MainActorRegistration<Service>: Sendable {
    /// The registration itself, for what takes a ``Registration``.
    public let registration: Registration<Service>

    package init(_ registration: Registration<Service>) {
        self.registration = registration
    }

    /// The key the registration is stored under.
    public var key: ServiceKey { registration.key }

    /// Sets how long resolved instances live and who shares them; see ``Registration/scope(_:)``.
    @discardableResult
    public func scope(_ scope: Scope) -> MainActorRegistration {
        registration.scope(scope)
        return self
    }

    /// Marks the registration live-only; see ``Registration/liveOnly()``.
    @discardableResult
    public func liveOnly() -> MainActorRegistration {
        registration.liveOnly()
        return self
    }

    /// Makes the instance when the container is bootstrapped; see ``Registration/eager()``.
    @discardableResult
    public func eager() -> MainActorRegistration {
        registration.eager()
        return self
    }

    /// Also serves the registration under another type; see ``Registration/implements(_:name:file:line:)``.
    @discardableResult
    public func implements<Other>(
        _ otherType: Other.Type, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> MainActorRegistration {
        registration.implements(otherType, name: name, file: file, line: line)
        return self
    }

    /// Runs `hook` on the main actor after each new instance is made, before it is handed out,
    /// with the resolver of the resolution in progress: where main-actor state (a view model's
    /// router, its delegate) is set. A synchronous resolve runs it on the main actor, where it
    /// runs the factory; an awaited one hops there for both.
    /// - Parameter hook: Receives the resolver and the new instance, on the main actor.
    @discardableResult
    public func initCompleted(_ hook: @escaping @MainActor @Sendable (any Resolver, Service) throws -> Void) -> MainActorRegistration {
        registration.initCompleted { resolver, instance in
            // A main-actor registration's hooks run where its factory ran: on the main actor.
            let arguments = UncheckedSendable((resolver, instance))
            try MainActor.assumeIsolated { try hook(arguments.value.0, arguments.value.1) }
        }
        return self
    }
}
