/// A resolution is the resolver its factories receive: nested resolves share its path and graph.
/// Used where it is not running (kept by an instance, or on another thread), it starts a new
/// top-level call from its source, which fails with `container-released` once that is gone.
extension Resolution: Resolver {
    @inline(__always)
    package func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        guard isCurrent else {
            let key = ServiceKey(serviceType, name: name)
            return try sourceForNewCall(key).resolveTopLevel(key, as: serviceType)
        }
        return try resolve(
            ServiceKey(serviceType, name: name), as: serviceType,
            registered: state.registry?.entry(for: serviceType, name: name))
    }

    package func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        guard isCurrent else {
            return try sourceForNewCall(key).resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
        }
        return try resolvePassing(key, as: serviceType, found: nil, arguments: repeat each arguments)
    }

    package func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        guard isCurrent else {
            return try sourceForNewCall(ServiceKey(serviceType)).resolveAllTopLevel(serviceType)
        }
        return try resolveAllInPlace(serviceType)
    }
}

/// A source that adds nothing to resolving (the verification sandbox, the scope probe) is a
/// resolver this way: each resolve is a new top-level call from it.
extension ResolutionSource {
    package func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try resolveTopLevel(serviceType, name: name)
    }

    package func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
        return try resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
    }

    package func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try resolveAllTopLevel(serviceType)
    }
}

extension ResolutionSource {
    package func resolveTopLevel<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil
    ) throws -> Service {
        try Resolution.run(from: self) { try $0.resolve(key, as: serviceType, found: found) }
    }

    package func resolveTopLevel<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil, arguments: repeat each Argument
    ) throws -> Service {
        try Resolution.run(from: self) {
            try $0.resolvePassing(key, as: serviceType, found: found, arguments: repeat each arguments)
        }
    }

    package func resolveAllTopLevel<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try Resolution.run(from: self) { try $0.resolveAllInPlace(serviceType) }
    }

    /// Resolves a type by name in a new top-level call from this source.
    package func resolveTopLevel<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        try Resolution.run(from: self) { try $0.resolve(serviceType, name: name) }
    }

    /// Runs `body` with the resolver of a new top-level call from this source: what it resolves
    /// shares one path and one set of `.graph` instances.
    package func withResolver<Result>(_ body: (any Resolver) throws -> Result) throws -> Result {
        try Resolution.run(from: self) { try body($0.resolver) }
    }

    /// Resolves what `found` registers, as its own type, in a new top-level call from this source.
    package func resolveErased(_ found: Lookup) throws -> Any {
        try Resolution.run(from: self) { try found.entry.resolveErased(in: $0, found: found) }
    }
}
