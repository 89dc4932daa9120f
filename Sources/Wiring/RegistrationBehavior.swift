/// Told of every registration a container adds, as Swinject's `Behavior` is: to build a
/// catalogue, to check a naming rule, or to add registrations of its own, such as serving every
/// view model under a common protocol.
///
/// ```swift
/// struct ServeViewModels: RegistrationBehavior {
///     func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
///         guard Service.self is any ViewModel.Type else { return }
///         registration.implements(ViewModel.self, name: info.key.typeDescription)
///     }
/// }
/// let container = Container(behaviors: [ServeViewModels()])
/// ```
///
/// Give behaviors to the container's initializer (they then see the registrations of its
/// modules too) or add them with `addBehavior(_:)`; a behavior sees registrations added after
/// it, in its own container only (a child container has behaviors of its own).
///
/// **Threads.** A behavior is called on the thread that registers, right after the
/// registration is stored and outside the container's lock, so it may register (what it adds
/// is reported to every behavior in turn, before the outer call returns) and resolve.
/// Registering from several threads at once calls it from several threads at once: it must be
/// `Sendable`, and keep any state it gathers behind a lock.
public protocol RegistrationBehavior: Sendable {
    /// Called after `container` added `registration` (through `register`, `autoregister`,
    /// `implements` and the like). `info` is the registration as added: its key, its site, and
    /// the container's default scope (or the one its kind of registration starts with); a
    /// `.scope(_:)` later in the chain is reported to ``container(_:didUpdate:)``.
    /// - Parameters:
    ///   - container: The container that added the registration.
    ///   - registration: The registration, to add options or other types to (`implements`).
    ///   - info: Its key, scope, site and statically known dependencies.
    func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo)

    /// Called after `.scope(_:)`, `.initCompleted` or `.eager()` changed a registration of
    /// `container`, with the registration as it is now. Does nothing unless implemented.
    /// - Parameters:
    ///   - container: The container that holds the registration.
    ///   - info: The registration, with its new options.
    func container(_ container: Container, didUpdate info: RegistrationInfo)
}

extension RegistrationBehavior {
    /// Nothing: a behavior that only cares about new registrations need not implement it.
    public func container(_ container: Container, didUpdate info: RegistrationInfo) {}
}

extension Container {
    /// Calls `observer` with every registration added to this container from now on, and again
    /// whenever one's options change (`.scope(_:)`, `.initCompleted`, `.eager()`), with the
    /// registration as it is then: keep the last report of each key.
    ///
    /// ```swift
    /// let catalogue = Catalogue()
    /// container.observeRegistrations { info in catalogue.record(info) }
    /// ```
    ///
    /// It is called on the registering thread, outside the container's lock; see
    /// ``RegistrationBehavior`` (this is one, made from a closure).
    /// - Parameter observer: Receives each registration's key, scope, site and dependencies.
    public func observeRegistrations(_ observer: @escaping @Sendable (RegistrationInfo) -> Void) {
        addBehavior(RegistrationObserving(observer: observer))
    }
}

/// A behavior made from a closure, told of additions and changes alike.
private struct RegistrationObserving: RegistrationBehavior {
    let observer: @Sendable (RegistrationInfo) -> Void

    func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
        observer(info)
    }

    func container(_ container: Container, didUpdate info: RegistrationInfo) {
        observer(info)
    }
}
