#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Bionic)
@preconcurrency import Bionic
#endif

/// The state of one top-level `resolve` call: the path of keys being resolved (for cycles and
/// error messages), the instances of `.graph` scope and the registrations as the call first saw
/// them. Nested resolves through the resolver a factory receives share it; concurrent top-level
/// calls never do.
///
/// A synchronous call borrows its thread's resolution and gives it back when done, so a resolve
/// allocates nothing of its own; a resolution whose resolver escaped its factory is never reused.
package final class Resolution: @unchecked Sendable {
    // One resolution runs on one thread at a time (checked by `isCurrent`), so the dynamic
    // exclusivity checks on these would only cost time on the hot path.
    /// Kept alive by the caller of the top-level resolve while the resolution runs; held
    /// strongly only once a resolver escapes and may outlive that call.
    @exclusivity(unchecked) private unowned(unsafe) var borrowedSource: any ResolutionSource
    @exclusivity(unchecked) private var retainedSource: (any ResolutionSource)?
    /// The registry of the container resolved from, and of its ancestors a lookup reached,
    /// as each was when first needed: later lookups take no lock.
    @exclusivity(unchecked) private var registry: Registry?
    /// The source's own cache when the source is a container whose registry is `registry`:
    /// plain keys can then be looked up there directly.
    @exclusivity(unchecked) private unowned(unsafe) var directCache: (any InstanceCache)?
    @exclusivity(unchecked) private var ancestorRegistries: ContiguousArray<Registry> = []
    /// The registrations being resolved, from the top-level request down. Each stays alive
    /// while it is on the path: the frame resolving it holds its lookup.
    @exclusivity(unchecked) private var steps: ContiguousArray<Unmanaged<RegistrationEntry>> = []
    @exclusivity(unchecked) private var graphIDs: ContiguousArray<Int> = []
    @exclusivity(unchecked) private var graphBoxes: ContiguousArray<InstanceBox> = []
    @exclusivity(unchecked) private var thread = ThreadIdentity.current
    @exclusivity(unchecked) package private(set) var isActive = true
    /// Told about every step when a test container records the resolution.
    @exclusivity(unchecked) package var observer: (any ResolutionObserver)?

    package init(source: any ResolutionSource) {
        borrowedSource = source
        retainedSource = source
        observer = source.makeObserver()
    }

    private init(borrowing source: any ResolutionSource) {
        borrowedSource = source
        observer = source.makeObserver()
    }

    package var source: any ResolutionSource { borrowedSource }

    /// The keys being resolved, from the top-level request down.
    package var path: [ServiceKey] { steps.map { $0.takeUnretainedValue().key } }

    /// The registry of the container `level` steps up from the source, fetched once per resolution.
    @inline(__always)
    package func registry(at level: Int, fetch: () -> Registry) -> Registry {
        if level == 0 {
            if let registry { return registry }
            let fetched = fetch()
            registry = fetched
            return fetched
        }
        while ancestorRegistries.count < level {
            ancestorRegistries.append(fetch())
        }
        return ancestorRegistries[level - 1]
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { ResolutionContext(resolution: self) }

    /// Whether a nested resolve may use this resolution: it is still running, on this thread.
    /// A resolver that escaped its factory starts a new top-level resolution instead.
    package var isCurrent: Bool { isActive && thread == .current }

    package func finish() {
        isActive = false
    }

    /// Marks the calling thread as the one running this resolution: an async resolution moves
    /// between threads, but each synchronous step runs on one.
    package func claimThread() {
        thread = .current
    }

    // MARK: One per thread

    /// A resolution for a synchronous top-level call: the one this thread keeps, when it is free.
    package static func begin(source: any ResolutionSource) -> Resolution {
        guard let raw = pthread_getspecific(idle) else { return Resolution(borrowing: source) }
        pthread_setspecific(idle, nil)
        let resolution = Unmanaged<Resolution>.fromOpaque(raw).takeRetainedValue()
        resolution.borrowedSource = source
        resolution.observer = source.makeObserver()
        resolution.isActive = true
        return resolution
    }

    /// A resolution for a top-level call on `container`, whose registry the caller already read.
    package static func begin(container: Container, registry: Registry) -> Resolution {
        let resolution = begin(source: container)
        resolution.registry = registry
        if resolution.observer == nil { resolution.directCache = container }
        return resolution
    }

    /// The lookup of an unnamed type without arguments in the source container's own registry,
    /// if that is where it is and nobody observes the resolution.
    @inline(__always)
    package func directLookup(_ type: ObjectIdentifier) -> Lookup? {
        guard let directCache, let entry = registry.unsafelyUnwrapped.plainEntry(for: type) else { return nil }
        return Lookup(entry: entry, cache: directCache)
    }

    /// Ends a resolution from `begin(source:)`, keeping it for the thread's next call unless a
    /// resolver of it is still held somewhere.
    package static func end(_ resolution: inout Resolution) {
        resolution.isActive = false
        guard isKnownUniquelyReferenced(&resolution) else {
            // A resolver escaped: it may start resolutions of its own after this call returns.
            resolution.retainedSource = resolution.borrowedSource
            return
        }
        // `removeAll(keepingCapacity:)` costs a call even on an empty array; most are empty.
        if !resolution.steps.isEmpty { resolution.steps.removeAll(keepingCapacity: true) }
        if !resolution.graphIDs.isEmpty {
            resolution.graphIDs.removeAll(keepingCapacity: true)
            resolution.graphBoxes.removeAll(keepingCapacity: true)
        }
        if !resolution.ancestorRegistries.isEmpty { resolution.ancestorRegistries.removeAll(keepingCapacity: true) }
        resolution.registry = nil
        resolution.directCache = nil
        resolution.observer = nil
        guard pthread_getspecific(idle) == nil else { return }
        pthread_setspecific(idle, Unmanaged.passRetained(resolution).toOpaque())
    }

    private static let idle: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<Resolution>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { raw in raw.map { Unmanaged<Resolution>.fromOpaque($0).release() } }
        #endif
        return key
    }()

    // MARK: Resolving

    /// Resolves a key that takes no runtime arguments.
    package func resolve<Service>(_ key: ServiceKey, as serviceType: Service.Type, found: Lookup?) throws -> Service {
        guard let found = found ?? lookup(key, as: serviceType) else { throw notRegistered(key) }
        return try resolve(key, found, as: serviceType) { entry, resolver in
            try entry.make(resolver, as: Service.self)
        }
    }

    package func resolve<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, arguments: repeat each Argument
    ) throws -> Service {
        guard key.takesArguments else { return try resolve(key, as: serviceType, found: found) }
        guard let found = found ?? lookup(key, as: serviceType) else { throw notRegistered(key) }
        return try resolve(key, found, as: serviceType) { entry, resolver in
            let entry = unsafeDowncast(entry, to: ArgumentFactoryEntry<Service, repeat each Argument>.self)
            return try entry.factory(resolver, repeat each arguments)
        }
    }

    private func resolve<Service>(
        _ key: ServiceKey, _ found: Lookup, as serviceType: Service.Type,
        make: (RegistrationEntry, any Resolver) throws -> Service
    ) throws -> Service {
        guard let observer else { return try resolveInScope(key, found, as: serviceType, make: make) }
        observer.willResolve(key, found: found, path: path)
        do {
            let instance = try resolveInScope(key, found, as: serviceType, make: make)
            observer.didResolve(key, found: found, instance: instance, outcome: outcome)
            return instance
        } catch {
            observer.didFail(key, error: error)
            throw error
        }
    }

    /// How the last instance was obtained, for an observer.
    @exclusivity(unchecked) private var outcome = ResolutionOutcome.created

    // Generic code here never forms a `Service?`: each one costs a metadata lookup at run time.
    private func resolveInScope<Service>(
        _ key: ServiceKey, _ found: Lookup, as serviceType: Service.Type,
        make: (RegistrationEntry, any Resolver) throws -> Service
    ) throws -> Service {
        let entry = found.entry
        switch entry.lifetime {
        case .transient:
            try enter(key, entry)
            defer { leave() }
            let instance = try produce(entry, key, make)
            try complete(entry, key, instance)
            outcome = .created
            return instance

        case .graph:
            if let box = graphBox(for: entry) {
                outcome = .sharedInGraph
                return box.value(as: Service.self)
            }
            try enter(key, entry)
            defer { leave() }
            let instance = try produce(entry, key, make)
            keepInGraph(instance, for: entry)
            try complete(entry, key, instance)
            outcome = .created
            return instance

        case .container, .custom:
            return try resolveStored(key, found, as: serviceType, make: make)

        case .weak:
            return try resolveWeak(key, found, as: serviceType, make: make)
        }
    }

    private func resolveStored<Service>(
        _ key: ServiceKey, _ found: Lookup, as serviceType: Service.Type,
        make: (RegistrationEntry, any Resolver) throws -> Service
    ) throws -> Service {
        let entry = found.entry
        if let box = found.cache.cachedInstance(for: entry) {
            outcome = .cached
            return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
        }
        let lock = found.cache.creationLock
        lock.lock()
        defer { lock.unlock() }
        if let box = found.cache.cachedInstance(for: entry) {
            outcome = .cached
            return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
        }
        try enter(key, entry)
        defer { leave() }
        let instance = try produce(entry, key, make)
        found.cache.store(InstanceBox.make(instance), for: entry)
        try complete(entry, key, instance)
        outcome = .created
        return instance
    }

    @inline(never)
    private func resolveWeak<Service>(
        _ key: ServiceKey, _ found: Lookup, as serviceType: Service.Type,
        make: (RegistrationEntry, any Resolver) throws -> Service
    ) throws -> Service {
        let entry = found.entry
        if let instance = try held(found.cache.cachedInstance(for: entry), key, as: Service.self) {
            outcome = .cached
            return instance
        }
        let lock = found.cache.creationLock
        lock.lock()
        defer { lock.unlock() }
        if let instance = try held(found.cache.cachedInstance(for: entry), key, as: Service.self) {
            outcome = .cached
            return instance
        }
        try enter(key, entry)
        defer { leave() }
        let instance = try produce(entry, key, make)
        let value = instance as Any
        guard type(of: value) is AnyClass else {
            throw ResolutionError(
                key: key, path: path, reason: .weakScopeRequiresClass(actual: type(of: value)), site: entry.site)
        }
        found.cache.store(WeakInstanceBox(value as AnyObject), for: entry)
        try complete(entry, key, instance)
        outcome = .created
        return instance
    }

    package func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source.registrations(ofType: serviceType)
            .filter { !$0.entry.key.takesArguments }
            .map { try resolve($0.entry.key, as: serviceType, found: $0) }
    }

    // MARK: Steps

    package func lookup<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> Lookup? {
        source.lookup(key, in: self) ?? implicitLookup(key, as: serviceType)
    }

    func graphBox(for entry: RegistrationEntry) -> InstanceBox? {
        guard let index = graphIDs.firstIndex(of: entry.id) else { return nil }
        return graphBoxes[index]
    }

    func keepInGraph<Service>(_ instance: Service, for entry: RegistrationEntry) {
        graphIDs.append(entry.id)
        graphBoxes.append(InstanceBox.make(instance))
    }

    func enter(_ key: ServiceKey, _ entry: RegistrationEntry) throws {
        if steps.contains(where: { $0.takeUnretainedValue().id == entry.id }) {
            let keys = path
            let start = keys.firstIndex { $0 == key } ?? keys.startIndex
            throw ResolutionError(
                key: key, path: keys + [key], reason: .circularDependency(cycle: Array(keys[start...]) + [key]))
        }
        steps.append(Unmanaged.passUnretained(entry))
    }

    func leave() {
        steps.removeLast()
    }

    private func produce<Service>(
        _ entry: RegistrationEntry, _ key: ServiceKey, _ make: (RegistrationEntry, any Resolver) throws -> Service
    ) throws -> Service {
        do {
            return try make(entry, resolver)
        } catch {
            throw resolutionError(error, entry, key)
        }
    }

    /// A factory's error as the `ResolutionError` that names the key and the path.
    func resolutionError(_ error: any Error, _ entry: RegistrationEntry, _ key: ServiceKey) -> any Error {
        switch error {
        case let error as ResolutionError:
            error
        case let needsAwait as NeedsAwait:
            ResolutionError(
                key: key, path: path, reason: .requiresAwait(mainActor: needsAwait.isMainActor), site: entry.site)
        case let mismatch as TypeMismatch:
            ResolutionError(
                key: key, path: path, reason: .typeMismatch(expected: mismatch.expected, actual: mismatch.actual),
                site: entry.site)
        default:
            ResolutionError(key: key, path: path, reason: .factoryFailed(underlying: error), site: entry.site)
        }
    }

    func complete<Service>(_ entry: RegistrationEntry, _ key: ServiceKey, _ instance: Service) throws {
        guard entry.hasHooks else { return }
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
            Lookup(entry: $0, cache: source.implicitCache)
        }
    }

    func notRegistered(_ key: ServiceKey) -> ResolutionError {
        let nearMisses = source.registrations(ofType: key.serviceType)
            .filter { $0.entry.key != key }
            .map { ResolutionError.RegisteredKey(key: $0.entry.key, site: $0.entry.site) }
        let error = ResolutionError(key: key, path: path + [key], reason: .notRegistered(nearMisses: nearMisses))
        observer?.didFail(key, error: error)
        return error
    }
}

/// How a resolution obtained an instance.
package enum ResolutionOutcome: Sendable {
    /// The factory ran.
    case created
    /// A stored scope (`.container`, `.weak`, custom) already held it.
    case cached
    /// An earlier step of the same top-level resolve made it (`.graph`).
    case sharedInGraph
}

/// Follows a resolution step by step; a test container records the trace this way.
package protocol ResolutionObserver: AnyObject, Sendable {
    /// A registration was found for `key` and is about to be resolved below `path` (made only
    /// if asked for: recording a trace does not need it, and it costs an allocation per step).
    func willResolve(_ key: ServiceKey, found: Lookup, path: @autoclosure () -> [ServiceKey])
    /// The step begun by the last unfinished `willResolve` gave `instance`.
    func didResolve(_ key: ServiceKey, found: Lookup, instance: Any, outcome: ResolutionOutcome)
    /// The step for `key` failed; when nothing was registered, no `willResolve` came first.
    func didFail(_ key: ServiceKey, error: any Error)
}

/// The resolver a factory receives: resolves within the resolution that runs the factory.
struct ResolutionContext: Resolver {
    let resolution: Resolution

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        guard resolution.isCurrent else {
            return try resolution.source.resolveTopLevel(ServiceKey(serviceType, name: name), as: serviceType)
        }
        if name == nil, let found = resolution.directLookup(ObjectIdentifier(serviceType)) {
            return try resolution.resolve(found.entry.key, as: serviceType, found: found)
        }
        return try resolution.resolve(ServiceKey(serviceType, name: name), as: serviceType, found: nil)
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
    package func resolveTopLevel<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil
    ) throws -> Service {
        var resolution = Resolution.begin(source: self)
        defer { Resolution.end(&resolution) }
        return try resolution.resolve(key, as: serviceType, found: found)
    }

    package func resolveTopLevel<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil, arguments: repeat each Argument
    ) throws -> Service {
        var resolution = Resolution.begin(source: self)
        defer { Resolution.end(&resolution) }
        return try resolution.resolve(key, as: serviceType, found: found, arguments: repeat each arguments)
    }

    package func resolveAllTopLevel<Service>(_ serviceType: Service.Type) throws -> [Service] {
        var resolution = Resolution.begin(source: self)
        defer { Resolution.end(&resolution) }
        return try resolution.resolveAll(serviceType)
    }

    /// Runs `body` with a resolution of its own, as a top-level call does.
    package func withResolution<Result>(_ body: (Resolution) throws -> Result) rethrows -> Result {
        var resolution = Resolution.begin(source: self)
        defer { Resolution.end(&resolution) }
        return try body(resolution)
    }
}
