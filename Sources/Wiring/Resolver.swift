/// Something services can be resolved from: a `Container`, a test container, or the resolver a
/// factory receives, which resolves within the resolution in progress.
///
/// ```swift
/// container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
/// let owner = try container.resolve(Owner.self)
/// let animal: Animal = try container.resolve()          // the type is inferred
/// ```
public protocol Resolver: Sendable {
    /// Resolves the service registered for a type and name, without runtime arguments.
    /// - Parameters:
    ///   - serviceType: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Throws: ``ResolutionError`` naming the key, the path and the fix.
    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service

    /// Resolves a service whose factory takes runtime arguments.
    /// - Parameters:
    ///   - serviceType: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - arguments: The runtime arguments; their types are part of the key.
    /// - Throws: ``ResolutionError`` naming the key, the path and the fix.
    func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service

    /// Resolves every registration of a type that takes no runtime arguments, named or not,
    /// in registration order, parents' registrations first.
    func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service]
}

extension Resolver {
    /// Resolves the unnamed registration of a type; the type can be inferred.
    ///
    /// ```swift
    /// let cat = try container.resolve(Animal.self)
    /// let animal: Animal = try container.resolve()
    /// ```
    @inlinable @inline(__always)
    public func resolve<Service>(_ serviceType: Service.Type = Service.self) throws -> Service {
        try resolve(serviceType, name: nil)
    }

    /// Resolves a named registration whose type is inferred: `let a: Animal = try r.resolve(name: "mimi")`.
    @inlinable
    public func resolve<Service>(name: String) throws -> Service {
        try resolve(Service.self, name: name)
    }

    /// Resolves the unnamed registration whose factory takes these runtime arguments.
    ///
    /// ```swift
    /// let cat = try container.resolve(Animal.self, arguments: "Mew", true)
    /// ```
    @inlinable
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type = Service.self, arguments: repeat each Argument
    ) throws -> Service {
        try resolve(serviceType, name: nil, arguments: repeat each arguments)
    }
}
