import Wiring

/// A set of test doubles that replace registrations while the layer is in place, and the
/// instances made while it is on top. Popping it drops both.
///
/// ```swift
/// test.pushLayer("offline")
/// test.override(Network.self) { _ in OfflineNetwork() }
/// test.popLayer()
/// ```
public final class OverrideLayer: Sendable {
    /// The name shown in traces and reports.
    public let name: String
    package let id: Int
    /// Holds the overrides; never resolved from directly.
    package let overrides = Container()
    package let cache = InstanceStore()

    /// Where an override finds the scope of the registration it replaces.
    private let base: Container?

    init(name: String, base: Container?, changes: ChangeSignal) {
        self.name = name
        self.base = base
        overrides.observeChanges(changes)
        self.id = OverrideLayer.identifiers.withLock { next in
            next += 1
            return next
        }
    }

    private static let identifiers = LockedState(0)

    /// Frees the instances made while this layer was on top, as popping it promises.
    func dropInstances() {
        let dropped = cache.removeAll()
        // Released here, outside the store's lock: a deinit may well resolve something.
        withExtendedLifetime(dropped) {}
    }

    /// Replaces the registration of a type (and name) while this layer is in place, at every
    /// depth of every resolution, including inside factories registered in the base.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration, to set a scope. Unless you do, the override keeps the scope
    ///   of the registration it replaces, so a singleton's double is a singleton too.
    @discardableResult
    public func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration<Service> {
        keepingScope(overrides.register(serviceType, name: name, file: file, line: line, factory: factory))
    }

    /// Replaces a registration that takes runtime arguments.
    @discardableResult
    public func override<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        keepingScope(overrides.register(serviceType, name: name, file: file, line: line, factory: factory))
    }

    private func keepingScope<Service>(_ registration: Registration<Service>) -> Registration<Service> {
        guard let replaced = base?.registration(for: registration.key) else { return registration }
        return registration.scope(replaced.scope)
    }
}
