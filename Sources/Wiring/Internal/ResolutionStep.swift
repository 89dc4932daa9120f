/// The one step every resolve goes through, plain, recorded or async: look up, enter the path,
/// ask the scope's store, make, run hooks, publish, tell the observer.
extension Resolution {
    /// Resolves `key` in this resolution, the one way a key is resolved: through `registered`,
    /// its entry in the call's own registry, when the caller read it there (the usual nested
    /// resolve); else through `found`, its lookup, when the caller made one; else it is looked up
    /// now. A key that takes runtime arguments is resolved with `arguments`, which its factory
    /// reads.
    @inline(__always)
    package func resolve<Service>(
        _ key: @autoclosure () -> ServiceKey, as serviceType: Service.Type, registered: RegistrationEntry? = nil,
        found: Lookup? = nil, arguments: UnsafeArguments? = nil
    ) throws -> Service {
        guard let arguments, key().takesArguments else {
            if let registered, state.directCache != nil { return try step(registered, in: state.directCache!, as: serviceType) }
            return try resolveLookedUp(key(), as: serviceType, found: found, arguments: nil)
        }
        // An entry that keeps an instance per distinct arguments resolves them through a variant.
        if let registered, state.directCache != nil, registered.variant(for: arguments) === registered {
            return try withPending(arguments) { try step(registered, in: state.directCache!, as: serviceType) }
        }
        return try resolveLookedUp(key(), as: serviceType, found: found, arguments: arguments)
    }

    /// ``resolve(_:as:registered:found:arguments:)`` for a key not read in the call's registry.
    private func resolveLookedUp<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, arguments: UnsafeArguments?
    ) throws -> Service {
        guard let registered = found ?? lookup(key, as: serviceType) else { throw notRegistered(key) }
        guard let arguments else { return try resolve(registered, as: serviceType) }
        let variant = registered.entry.variant(for: arguments)
        let found = variant === registered.entry
            ? registered : Lookup(entry: variant, cache: registered.cache, origin: registered.origin)
        // `registered` made `found`'s variant entry, which it holds weakly.
        return try withExtendedLifetime(registered) {
            try withPending(arguments) { try resolve(found, as: serviceType) }
        }
    }

    /// Runs `body` with `arguments` pending: the entry's `make` takes them before its factory can
    /// resolve anything.
    private func withPending<Result>(_ arguments: UnsafeArguments?, _ body: () throws -> Result) rethrows -> Result {
        guard let arguments else { return try body() }
        state.pendingArguments = arguments
        defer { state.pendingArguments = nil }
        return try body()
    }

    /// Resolves `key`, passing its runtime arguments one by one: the tuple they make is read
    /// through ``resolve(_:as:registered:found:arguments:)``.
    package func resolvePassing<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, arguments: repeat each Argument
    ) throws -> Service {
        var arguments = (repeat each arguments)
        return try UnsafeArguments.with(&arguments) { arguments in
            try resolve(key, as: serviceType, found: found, arguments: arguments)
        }
    }

    @inline(never)
    private func resolveObserved<Service>(_ found: Lookup, as serviceType: Service.Type) throws -> Service {
        guard let observer = state.observer else { return try resolve(found, as: serviceType, observed: false) }
        let observed = ObservedStep(found, by: observer, path: path)
        do {
            let instance = try resolve(found, as: serviceType, observed: false)
            return observed.gave(instance, state.outcome)
        } catch {
            throw observed.failed(error)
        }
    }

    /// The step, told to the observer if there is one (unless the observer runs it, `observed`
    /// false). Every path (plain, recorded, async) follows the same order, with the scope's rules
    /// in `existingInstance` and `keep`: an instance that already exists; else enter the path,
    /// claim it (stored lifetimes), make it, keep and publish it. Generic code here never forms a
    /// `Service?`: each one costs a metadata lookup at run time.
    func resolve<Service>(_ found: Lookup, as serviceType: Service.Type, observed: Bool = true) throws -> Service {
        try step(found.entry, in: found.cache, origin: found.origin, as: serviceType, observed: observed)
    }

    /// The step of ``resolve(_:as:observed:)`` for `entry`, whose kept instances live in `store`
    /// (asked for only by lifetimes that keep them), found at `origin` of its source.
    @inline(__always)
    private func step<Service>(
        _ entry: RegistrationEntry, in store: @autoclosure () -> any InstanceCache, origin: Int = 0,
        as serviceType: Service.Type, observed: Bool = true
    ) throws -> Service {
        if observed, _slowPath(state.observer != nil) {
            return try resolveObserved(Lookup(entry: entry, cache: store(), origin: origin), as: serviceType)
        }
        let policy = entry.policy
        if policy.keepsInstances { return try resolveKept(entry, in: store(), as: serviceType) }
        // An instance shared within the resolve, read here rather than through
        // `existingInstance` (measurably slower on a `.graph`-heavy resolve).
        if policy.sharedWithinResolve, let index = state.graph.index(of: entry.id) {
            state.outcome = .sharedInGraph
            return state.graph.value(at: index, as: serviceType)
        }
        try enter(entry)
        defer { state.steps.pop(entry) }
        return try keep(produce(entry, as: serviceType), of: entry, in: nil)
    }

    // MARK: The scope's rules, for every path

    /// Where an instance a step gives without making one is. Not generic: generic code that
    /// forms a `Service?` looks the metadata of `Optional<Service>` up at run time, on every call
    /// (for a kept singleton, most of what its step cost).
    enum Existing {
        /// What a stored lifetime's store keeps (see `keptObject(in:for:)`).
        case kept(AnyObject)
        /// The one this resolution made earlier, at this index of its `.graph` instances.
        case graph(Int)
    }

    /// The instance a step gives without making one, if there is one: the one a stored
    /// lifetime's store keeps, or the one this resolution made for a `.graph` registration (or
    /// a kept one whose hooks still run). Sets `outcome`.
    func existingInstance(of entry: RegistrationEntry, in cache: @autoclosure () -> any InstanceCache) -> Existing? {
        let policy = entry.policy
        guard policy.sharedWithinResolve else { return nil }
        if policy.keepsInstances, let kept = keptObject(in: cache(), for: entry) {
            state.outcome = .cached
            return .kept(kept)
        }
        // Made earlier in this resolution: shared within it, or kept and its hooks still running.
        guard let index = state.graph.index(of: entry.id) else { return nil }
        state.outcome = policy.keepsInstances ? .cached : .sharedInGraph
        return .graph(index)
    }

    /// The instance `existing` is, as the step's type.
    /// - Throws: `type-mismatch` when a `.weak` store keeps an object of another type.
    func value<Service>(_ existing: Existing, of entry: RegistrationEntry, as serviceType: Service.Type) throws -> Service {
        switch existing {
        case .graph(let index):
            return state.graph.value(at: index, as: serviceType)
        case .kept(let kept):
            guard entry.policy.holdsWeakly else { return keptValue(kept, as: serviceType) }
            // Asked before the step entered the path, or after (while claiming): the key once.
            let entered = state.steps.last === entry
            return try weaklyKeptValue(kept, as: serviceType, key: entry.key, path: entered ? path : path + [entry.key])
        }
    }

    /// Keeps the instance the factory `made` as its lifetime says, runs the entry's hooks, then
    /// publishes it to `cache` (stored lifetimes only): other threads and calls see an instance
    /// only once its factory and hooks have finished, and a failure forgets it and stores
    /// nothing. Returns the instance the step gives, which is the one a hook made meanwhile if
    /// a hook asked for it while its factory ran. Sets `outcome`. The caller entered the path,
    /// and holds the claim for a stored lifetime.
    @inline(__always)
    func keep<Service>(_ made: Service, of entry: RegistrationEntry, in cache: (any InstanceCache)?) throws -> Service {
        let policy = entry.policy
        if !policy.sharedWithinResolve {
            if _slowPath(entry.hasHooks) { try complete(entry, made) }
            state.outcome = .created
            return made
        }
        if _slowPath(state.remadeInHooks != 0), let index = state.graph.index(of: entry.id) {
            state.outcome = policy.keepsInstances ? .cached : .sharedInGraph
            return state.graph.value(at: index, as: Service.self)
        }
        let box = policy.keepsInstances ? try box(made, for: entry) : nil
        state.graph.keep(made, for: entry.id)
        do {
            try complete(entry, made)
            // A hook may have swallowed the back-off (`try?`): what it built is not to be trusted.
            if box != nil, let backedOff = state.backedOff { throw backedOff.error }
        } catch {
            state.graph.forget(entry.id)
            throw error
        }
        if let box {
            guard let cache else { preconditionFailure("a stored lifetime's step publishes to its store") }
            // A call from a captured container, made below this step (by a hook, or by a
            // factory after a back-off), is a resolution of its own that claims as this one
            // does: asking for this instance, it may have made and published another. The first
            // one published is the one every resolve gets.
            if let published = keptObject(in: cache, for: entry) {
                state.outcome = .cached
                return try value(.kept(published), of: entry, as: Service.self)
            }
            cache.store(box, for: entry, observedBy: state.observer)
        }
        state.outcome = .created
        return made
    }

    /// What a store keeps for `entry`'s instance: the value, or a weak reference for `.weak`.
    func box<Service>(_ instance: Service, for entry: RegistrationEntry) throws -> AnyObject {
        guard entry.policy.holdsWeakly else { return InstanceBox(instance) }
        let value = instance as Any
        guard type(of: value) is AnyClass else {
            throw ResolutionError(
                key: entry.key, path: path, reason: .weakScopeRequiresClass(actual: type(of: value)), site: entry.site)
        }
        return WeakInstanceBox(value as AnyObject)
    }

    /// What `cache` keeps for `entry` and hands out, if anything (see `Scope.Policy.keptObject(_:)`).
    func keptObject(in cache: any InstanceCache, for entry: RegistrationEntry) -> AnyObject? {
        entry.policy.keptObject(cache.cachedInstance(for: entry, observedBy: state.observer))
    }

    /// Runs the entry's factory. The caller puts the entry on the path first.
    @inline(__always)
    func produce<Service>(_ entry: RegistrationEntry, as serviceType: Service.Type) throws -> Service {
        do {
            return try make(entry, in: self, as: serviceType)
        } catch {
            throw resolutionError(error, entry, entry.key)
        }
    }

    package func resolveAllInPlace<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source.registrations(ofType: serviceType)
            .filter { !$0.entry.key.takesArguments }
            .map { try resolve($0.entry.key, as: serviceType, found: $0) }
    }

    package func lookup<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> Lookup? {
        source.lookup(key, in: ResolutionEnvironment(of: self)) ?? implicitLookup(key, as: serviceType)
    }

    /// A factory's error as the `ResolutionError` that names the key and the path.
    @inline(never)
    func resolutionError(
        _ error: any Error, _ entry: RegistrationEntry, _ key: ServiceKey, thrownBy origin: ResolutionError.Origin = .factory
    ) -> any Error {
        switch error {
        case let error as ResolutionError:
            error
        case let needsAwait as NeedsAwait:
            ResolutionError(
                key: key, path: path, reason: .requiresAwait(mainActor: needsAwait.isMainActor), site: entry.site)
        case let mismatch as TypeMismatch:
            ResolutionError(
                key: key, path: path, reason: .typeMismatch(expected: mismatch.expected, actual: mismatch.actual),
                site: entry.site, origin: mismatch.servedFor.map { .implements(target: $0) } ?? origin)
        default:
            ResolutionError(
                key: key, path: path, reason: .factoryFailed(underlying: error), site: entry.site, origin: origin)
        }
    }

    /// Runs the entry's `initCompleted` hooks on its new instance.
    func complete<Service>(_ entry: RegistrationEntry, _ instance: Service) throws {
        guard entry.hasHooks else { return }
        let outerBoundary = state.hookBoundary
        state.hookBoundary = state.steps.count
        defer { state.hookBoundary = outerBoundary }
        do {
            for hook in entry.hooks {
                try hook(self, instance)  // a retain and a release, only where there are hooks
            }
        } catch {
            throw resolutionError(error, entry, entry.key, thrownBy: .initCompletedHook)
        }
    }

    func implicitLookup<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> Lookup? {
        ImplicitRegistrations.entry(for: key, as: serviceType).map {
            Lookup(entry: $0, cache: source.implicitCache(for: ResolutionEnvironment(of: self)))
        }
    }

    func notRegistered(_ key: ServiceKey) -> ResolutionError {
        let nearMisses = source.registrations(ofType: key.serviceType)
            .filter { $0.entry.key != key }
            .map { ResolutionError.RegisteredKey(key: $0.entry.key, site: $0.entry.site) }
        let error = ResolutionError(key: key, path: path + [key], reason: .notRegistered(nearMisses: nearMisses))
        state.observer?.didFail(key, error: error)
        return error
    }
}

/// The object a `.weak` store keeps, as the step's type (apart: a `Service?` in generic code
/// looks its metadata up at run time on every call).
/// - Throws: `type-mismatch`, naming `key` at the end of `path`, when it is of another type.
@inline(never)
func weaklyKeptValue<Service>(
    _ object: AnyObject, as serviceType: Service.Type, key: ServiceKey, path: @autoclosure () -> [ServiceKey]
) throws -> Service {
    guard let instance = object as? Service else {
        throw ResolutionError(key: key, path: path(), reason: .typeMismatch(expected: serviceType, actual: type(of: object)))
    }
    return instance
}
