/// The state of one top-level `resolve` call: the path of keys being resolved (for cycles and
/// error messages) and the instances of `.graph` scope. Nested resolves through the resolver a
/// factory receives share it; concurrent top-level calls never do.
package final class Resolution: @unchecked Sendable {
    package let source: any ResolutionSource
    // One resolution runs on one thread at a time (checked by `isCurrent`), so the dynamic
    // exclusivity checks on these would only cost time on the hot path.
    @exclusivity(unchecked) package private(set) var path: [ServiceKey] = []
    @exclusivity(unchecked) private var graph: [Int: AnyObject] = [:]
    @exclusivity(unchecked) private var thread = ThreadIdentity.current
    @exclusivity(unchecked) package private(set) var isActive = true

    package init(source: any ResolutionSource) {
        self.source = source
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { ResolutionContext(resolution: self) }

    /// Whether a nested resolve may use this resolution: it is still running, on this thread.
    /// A resolver that escaped its factory starts a new top-level resolution instead.
    package var isCurrent: Bool { thread == .current && isActive }

    package func finish() {
        isActive = false
    }

    /// Marks the calling thread as the one running this resolution: an async resolution moves
    /// between threads, but each synchronous step runs on one.
    package func claimThread() {
        thread = .current
    }

    // MARK: Resolving

    package func resolve<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, arguments: repeat each Argument
    ) throws -> Service {
        guard let found = found ?? source.lookup(key) ?? implicitLookup(key, as: serviceType) else {
            throw notRegistered(key)
        }
        let entry = unsafeDowncast(found.entry, to: FactoryEntry<Service, repeat each Argument>.self)
        switch entry.scope.lifetime {
        case .transient:
            try enter(key)
            defer { leave() }
            let instance = try produce(entry, key, repeat each arguments)
            try complete(entry, key, instance)
            return instance

        case .graph:
            if let instance = graphInstance(entry, as: Service.self) { return instance }
            try enter(key)
            defer { leave() }
            let instance = try produce(entry, key, repeat each arguments)
            keepInGraph(instance, for: entry)
            try complete(entry, key, instance)
            return instance

        case .container, .custom:
            if let box = found.cached ?? found.cache.cachedInstance(for: entry) {
                return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
            }
            let lock = found.cache.creationLock
            lock.lock()
            defer { lock.unlock() }
            if let box = found.cache.cachedInstance(for: entry) {
                return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
            }
            try enter(key)
            defer { leave() }
            let instance = try produce(entry, key, repeat each arguments)
            found.cache.store(InstanceBox(instance), for: entry)
            try complete(entry, key, instance)
            return instance

        case .weak:
            if let instance = try held(found.cached ?? found.cache.cachedInstance(for: entry), key, as: Service.self) {
                return instance
            }
            let lock = found.cache.creationLock
            lock.lock()
            defer { lock.unlock() }
            if let instance = try held(found.cache.cachedInstance(for: entry), key, as: Service.self) {
                return instance
            }
            try enter(key)
            defer { leave() }
            let instance = try produce(entry, key, repeat each arguments)
            let value = instance as Any
            guard type(of: value) is AnyClass else {
                throw ResolutionError(
                    key: key, path: path, reason: .weakScopeRequiresClass(actual: type(of: value)), site: entry.site)
            }
            found.cache.store(WeakInstanceBox(value as AnyObject), for: entry)
            try complete(entry, key, instance)
            return instance
        }
    }

    package func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source.registrations(ofType: serviceType)
            .filter { !$0.entry.key.takesArguments }
            .map { try resolve($0.entry.key, as: serviceType, found: $0) }
    }

    // MARK: Steps

    func graphInstance<Service>(_ entry: RegistrationEntry, as serviceType: Service.Type) -> Service? {
        graph[entry.id].map { unsafeDowncast($0, to: InstanceBox.self).value(as: Service.self) }
    }

    func keepInGraph<Service>(_ instance: Service, for entry: RegistrationEntry) {
        graph[entry.id] = InstanceBox(instance)
    }

    func enter(_ key: ServiceKey) throws {
        if let start = path.firstIndex(of: key) {
            throw ResolutionError(
                key: key, path: path + [key], reason: .circularDependency(cycle: Array(path[start...]) + [key]))
        }
        path.append(key)
    }

    func leave() {
        path.removeLast()
    }

    private func produce<Service, each Argument>(
        _ entry: FactoryEntry<Service, repeat each Argument>, _ key: ServiceKey, _ arguments: repeat each Argument
    ) throws -> Service {
        do {
            return try entry.factory(resolver, repeat each arguments)
        } catch let error as ResolutionError {
            throw error
        } catch let needsAwait as NeedsAwait {
            throw ResolutionError(
                key: key, path: path, reason: .requiresAwait(mainActor: needsAwait.isMainActor), site: entry.site)
        } catch let mismatch as TypeMismatch {
            throw ResolutionError(
                key: key, path: path, reason: .typeMismatch(expected: mismatch.expected, actual: mismatch.actual),
                site: entry.site)
        } catch {
            throw ResolutionError(key: key, path: path, reason: .factoryFailed(underlying: error), site: entry.site)
        }
    }

    func complete<Service>(_ entry: RegistrationEntry, _ key: ServiceKey, _ instance: Service) throws {
        guard !entry.hooks.isEmpty else { return }
        do {
            for hook in entry.hooks {
                try hook(resolver, instance)
            }
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(key: key, path: path, reason: .factoryFailed(underlying: error), site: entry.site)
        }
    }

    func held<Service>(_ box: AnyObject?, _ key: ServiceKey, as serviceType: Service.Type) throws -> Service? {
        guard let box, let object = unsafeDowncast(box, to: WeakInstanceBox.self).object else { return nil }
        guard let instance = object as? Service else {
            throw ResolutionError(
                key: key, path: path + [key],
                reason: .typeMismatch(expected: serviceType, actual: type(of: object)))
        }
        return instance
    }

    func implicitLookup<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> Lookup? {
        ImplicitRegistrations.entry(for: key, as: serviceType).map {
            Lookup(entry: $0, cache: source.implicitCache, cached: nil)
        }
    }

    func notRegistered(_ key: ServiceKey) -> ResolutionError {
        let nearMisses = source.registrations(ofType: key.serviceType)
            .filter { $0.entry.key != key }
            .map { ResolutionError.RegisteredKey(key: $0.entry.key, site: $0.entry.site) }
        return ResolutionError(key: key, path: path + [key], reason: .notRegistered(nearMisses: nearMisses))
    }
}

/// The resolver a factory receives: resolves within the resolution that runs the factory.
struct ResolutionContext: Resolver {
    let resolution: Resolution

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        let key = ServiceKey(serviceType, name: name)
        guard resolution.isCurrent else {
            return try resolution.source.resolveTopLevel(key, as: serviceType)
        }
        return try resolution.resolve(key, as: serviceType, found: nil)
    }

    func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        guard resolution.isCurrent else {
            return try resolution.source.resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
        }
        return try resolution.resolve(key, as: serviceType, found: nil, arguments: repeat each arguments)
    }

    func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        guard resolution.isCurrent else {
            return try resolution.source.resolveAllTopLevel(serviceType)
        }
        return try resolution.resolveAll(serviceType)
    }
}

extension ResolutionSource {
    package func resolveTopLevel<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil, arguments: repeat each Argument
    ) throws -> Service {
        let resolution = makeResolution()
        defer { resolution.finish() }
        return try resolution.resolve(key, as: serviceType, found: found, arguments: repeat each arguments)
    }

    package func resolveAllTopLevel<Service>(_ serviceType: Service.Type) throws -> [Service] {
        let resolution = makeResolution()
        defer { resolution.finish() }
        return try resolution.resolveAll(serviceType)
    }
}
