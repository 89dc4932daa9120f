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
    /// The registry of the container resolved from, as it was when first needed: later lookups
    /// take no lock. Held by the caller of the top-level resolve, or else by `registry`.
    @exclusivity(unchecked) private var unownedRegistry: Unmanaged<Registry>?
    @exclusivity(unchecked) private var registry: Registry?
    /// Where the instances of entries found in `registry` live, when every plain key the
    /// source resolves is either there or not registered at that level: plain keys can then be
    /// looked up there directly. A container's own cache; a test container's layers.
    @exclusivity(unchecked) private var directCache: UnownedCache?
    /// The registries of the source's ancestors that a lookup reached, as each was when first
    /// needed.
    @exclusivity(unchecked) private var ancestorRegistries: ContiguousArray<Registry> = []
    /// The registrations being resolved, from the top-level request down. Each stays alive
    /// while it is on the path: the frame resolving it holds its lookup.
    @exclusivity(unchecked) private var steps = StepStack()
    @exclusivity(unchecked) private var graph = GraphInstances()
    /// Where factories put the instances they make, until the step returns them.
    @exclusivity(unchecked) private var scratch = ScratchStack()
    @exclusivity(unchecked) private var thread = ThreadIdentity.current
    @exclusivity(unchecked) package private(set) var isActive = true
    /// Told about every step when a test container records the resolution; called on every
    /// step without reference counting. Kept alive by whoever started the resolution, or by
    /// `ownedObserver`.
    @exclusivity(unchecked) private var unownedObserver: Unmanaged<ObserverReference>?
    /// The observer, when this resolution owns it.
    @exclusivity(unchecked) private var ownedObserver: ObserverReference?
    /// This resolution as the resolver its factories receive; owned here, released in `deinit`.
    @exclusivity(unchecked) private var lent: Unmanaged<LentResolver>?

    package init(source: any ResolutionSource) {
        borrowedSource = source
        retainedSource = source
        asyncTurn = LockedState(0)
        lent = .passRetained(LentResolver(self))
        observe(owning: source.makeObserver())
    }

    private init(borrowing source: any ResolutionSource) {
        borrowedSource = source
        asyncTurn = nil
        lent = .passRetained(LentResolver(self))
    }

    deinit {
        lent.unsafelyUnwrapped.release()
        graph.removeAll()
        graph.deallocate()
        scratch.deallocate()
        steps.deallocate()
    }

    package var source: any ResolutionSource { borrowedSource }

    /// What follows the steps of this resolution, if anything does.
    package var observer: (any ResolutionObserver)? { unownedObserver?._withUnsafeGuaranteedRef { $0.observer } }

    private func observe(owning observer: ObserverReference?) {
        ownedObserver = observer
        unownedObserver = observer.map(Unmanaged.passUnretained)
    }

    /// The keys being resolved, from the top-level request down.
    package var path: [ServiceKey] { steps.entries.map(\.key) }

    /// The registrations being resolved, from the top-level request down.
    package var pathEntries: [RegistrationEntry] { steps.entries }

    /// Starts this resolution below `ancestors`, which the caller keeps alive until it ends, so
    /// that its cycles and errors count them.
    package func continuePath(_ ancestors: [RegistrationEntry]) {
        for entry in ancestors { steps.push(entry) }
    }

    // MARK: Async turns

    /// How many async calls are under way in this resolution, each waiting on the next: only a
    /// call from the innermost one's factory may resolve here. Concurrent calls of one factory
    /// would otherwise change the path and the `.graph` instances at the same time. Only a
    /// resolution made by `init(source:)` resolves asynchronously; a thread's has none.
    private let asyncTurn: LockedState<Int>?

    /// Takes turn `turn` (the number of async calls its caller is nested in), unless another
    /// call of the same factory has it.
    package func takeAsyncTurn(_ turn: Int) -> Bool {
        asyncTurn?.withLock { current in
            guard current == turn else { return false }
            current = turn + 1
            return true
        } ?? false
    }

    /// Ends a turn that ``takeAsyncTurn(_:)`` gave.
    package func endAsyncTurn(_ turn: Int) {
        asyncTurn?.withLock { $0 = turn }
    }

    /// The registry of the container `level` steps up from the source, fetched once per resolution.
    @inline(__always)
    package func registry(at level: Int, fetch: () -> Registry) -> Registry {
        if level == 0 {
            if let unownedRegistry { return unownedRegistry.takeUnretainedValue() }
            let fetched = fetch()
            registry = fetched
            unownedRegistry = Unmanaged.passUnretained(fetched)
            return fetched
        }
        while ancestorRegistries.count < level {
            ancestorRegistries.append(fetch())
        }
        return ancestorRegistries[level - 1]
    }

    /// The resolver handed to factories and hooks run by this resolution.
    package var resolver: any Resolver { self }

    /// Runs `body` with this resolution as the resolver a factory receives, without the
    /// retain and release that forming `any Resolver` from it costs on every step.
    @inline(__always)
    package func withResolver<Result>(_ body: (any Resolver) throws -> Result) rethrows -> Result {
        try lent.unsafelyUnwrapped._withUnsafeGuaranteedRef { try body($0.resolver) }
    }

    /// Whether a nested resolve may use this resolution: it is still running, on this thread.
    /// A resolver that escaped its factory starts a new top-level resolution instead.
    package var isCurrent: Bool { isActive && thread == .current }

    /// Ends a resolution that `init(source:)` made.
    package func finish() {
        isActive = false
        endObserving()
    }

    /// Tells the observer the resolution is over, and lets it go.
    @inline(__always)
    private func endObserving() {
        if _slowPath(unownedObserver != nil) { endObservingNow() }
    }

    @inline(never)
    private func endObservingNow() {
        let observer = unownedObserver.unsafelyUnwrapped
        unownedObserver = nil
        observer._withUnsafeGuaranteedRef { $0.observer.resolutionEnded() }
        if _slowPath(ownedObserver != nil) { ownedObserver = nil }
    }

    /// Marks the calling thread as the one running this resolution: an async resolution moves
    /// between threads, but each synchronous step runs on one.
    package func claimThread() {
        thread = .current
    }

    // MARK: One per thread

    /// Runs a synchronous top-level call from `source` on this thread's resolution, or on a new
    /// one while that is busy (a factory resolving straight from a container).
    @inline(__always)
    package static func run<Result>(source: any ResolutionSource, _ body: (Resolution) throws -> Result) throws -> Result {
        let resolution = takeIdle() ?? Resolution(borrowing: source)
        resolution.borrowedSource = source
        resolution.observe(owning: source.makeObserver())
        resolution.isActive = true
        return try run(resolution, body)
    }

    /// Runs a synchronous top-level call on `container`, whose registry the caller already read.
    @inline(__always)
    package static func run<Result>(
        container: Container, registry: __owned Registry, _ body: (Resolution) throws -> Result
    ) throws -> Result {
        let resolution = takeIdle() ?? Resolution(borrowing: container)
        resolution.borrowedSource = container
        resolution.isActive = true
        resolution.unownedRegistry = Unmanaged.passUnretained(registry)
        resolution.registry = consume registry
        resolution.directCache = UnownedCache(container)
        return try run(resolution, body)
    }

    /// Runs a synchronous top-level call from `source`, whose plain keys are looked up in
    /// `registry` first, with their instances in `cache`, and whose steps `observer` follows.
    /// The caller keeps all three alive until the call returns.
    @inline(__always)
    package static func run<Result>(
        source: any ResolutionSource, registry: Unmanaged<Registry>, cache: any InstanceCache,
        observer: Unmanaged<ObserverReference>, _ body: (Resolution) throws -> Result
    ) throws -> Result {
        let resolution = takeIdle() ?? Resolution(borrowing: source)
        resolution.borrowedSource = source
        resolution.unownedObserver = observer
        resolution.isActive = true
        resolution.unownedRegistry = registry
        resolution.directCache = UnownedCache(cache)
        return try run(resolution, body)
    }

    /// Runs `body` on a prepared resolution, then recycles it. Takes the caller's reference, so
    /// that at the end this frame's is the only one unless a resolver escaped.
    @inline(__always)
    private static func run<Result>(_ resolution: __owned Resolution, _ body: (Resolution) throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body(resolution)
        } catch {
            resolution.isActive = false
            resolution.endObserving()
            recycle(consume resolution)
            throw error
        }
        resolution.isActive = false
        resolution.endObserving()
        recycle(consume resolution)
        return result
    }

    /// This thread's resolution, unless it is running. The thread's reference moves to the
    /// caller; `recycle` gives it back.
    @inline(__always)
    private static func takeIdle() -> Resolution? {
        guard let raw = pthread_getspecific(idle) else { return nil }
        let resolution = Unmanaged<Resolution>.fromOpaque(raw)
        guard !resolution._withUnsafeGuaranteedRef({ $0.isActive }) else { return nil }
        return resolution.takeRetainedValue()
    }

    /// Keeps a resolution whose call is over (and its observer told) for the thread's next
    /// call, unless a resolver of it is still held somewhere.
    @inline(__always)
    private static func recycle(_ taken: __owned Resolution) {
        var resolution = consume taken
        guard isKnownUniquelyReferenced(&resolution) else {
            escaped(resolution)
            return
        }
        resolution.steps.removeAll()
        if !resolution.graph.isEmpty { resolution.graph.removeAll() }
        if !resolution.ancestorRegistries.isEmpty { resolution.ancestorRegistries.removeAll(keepingCapacity: true) }
        resolution.registry = nil
        resolution.unownedRegistry = nil
        resolution.directCache = nil
        let raw = Unmanaged.passRetained(resolution).toOpaque()
        if pthread_getspecific(idle) != raw { adopt(raw) }
    }

    /// Makes a resolution this thread's. The thread owns the one it had only while that one is
    /// idle: a running one belongs to its call further up the stack.
    @inline(never)
    private static func adopt(_ raw: UnsafeMutableRawPointer) {
        let previous = pthread_getspecific(idle).map { Unmanaged<Resolution>.fromOpaque($0) }
        pthread_setspecific(idle, raw)
        if let previous, !previous._withUnsafeGuaranteedRef({ $0.isActive }) {
            previous.release()
        }
    }

    /// A resolver escaped its factory: it may start resolutions of its own after this call
    /// returns, so the thread lets this resolution go.
    @inline(never)
    private static func escaped(_ resolution: Resolution) {
        resolution.retainedSource = resolution.borrowedSource
        // The thread's reference moved out in `takeIdle`; it must not point here any more.
        if pthread_getspecific(idle) == Unmanaged.passUnretained(resolution).toOpaque() {
            pthread_setspecific(idle, nil)
        }
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

    /// Resolves a key that takes no runtime arguments; `found` is its lookup, if the caller made it.
    package func resolve<Service>(_ key: ServiceKey, as serviceType: Service.Type, found: Lookup?) throws -> Service {
        guard let found = found ?? lookup(key, as: serviceType) else { throw notRegistered(key) }
        return try withExtendedLifetime(found) {
            try resolve(Found(found), as: serviceType)
        }
    }

    package func resolve<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, arguments: repeat each Argument
    ) throws -> Service {
        var arguments = (repeat each arguments)
        return try withUnsafePointer(to: &arguments) { arguments in
            try resolve(key, as: serviceType, found: found, argumentsAt: UnsafeRawPointer(arguments))
        }
    }

    /// Resolves a key with runtime arguments, which are a tuple at `arguments`.
    package func resolve<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup?, argumentsAt arguments: UnsafeRawPointer
    ) throws -> Service {
        guard key.takesArguments else { return try resolve(key, as: serviceType, found: found) }
        guard let found = found ?? lookup(key, as: serviceType) else { throw notRegistered(key) }
        // The entry's `make` takes them from here before its factory can resolve anything.
        pendingArguments = arguments
        defer { pendingArguments = nil }
        return try withExtendedLifetime(found) {
            try resolve(Found(found), as: serviceType)
        }
    }

    /// Resolves `key`, whose registration the caller found in the source container's own
    /// registry (`entry`), or not at all (`nil`).
    @inline(__always)
    package func resolve<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, registered entry: Unmanaged<RegistrationEntry>?
    ) throws -> Service {
        guard let entry, let directCache else { return try resolve(key, as: serviceType, found: nil) }
        return try resolve(Found(entry: entry, cache: directCache), as: serviceType)
    }

    /// Resolves `key` with runtime arguments, a tuple at `arguments`, whose registration the
    /// caller found in the source container's own registry (`entry`), or not at all (`nil`).
    package func resolve<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, registered entry: Unmanaged<RegistrationEntry>?,
        argumentsAt arguments: UnsafeRawPointer
    ) throws -> Service {
        guard let entry, let directCache, key.takesArguments else {
            return try resolve(key, as: serviceType, found: nil, argumentsAt: arguments)
        }
        pendingArguments = arguments
        defer { pendingArguments = nil }
        return try resolve(Found(entry: entry, cache: directCache), as: serviceType)
    }

    /// The runtime arguments of the step about to run its factory.
    @exclusivity(unchecked) package var pendingArguments: UnsafeRawPointer?

    /// How the last instance was obtained, for an observer.
    @exclusivity(unchecked) private var outcome = ResolutionOutcome.created

    /// The one generic step every resolution goes through. Generic code here never forms a
    /// `Service?`: each one costs a metadata lookup at run time.
    @inline(__always)
    func resolve<Service>(_ found: Found, as serviceType: Service.Type) throws -> Service {
        if _slowPath(unownedObserver != nil) { return try resolveObserved(found, as: serviceType) }
        return try found.unmanagedEntry._withUnsafeGuaranteedRef { entry in
            switch entry.lifetime {
            case .transient:
                try enter(entry)
                defer { steps.pop() }
                let instance = try produce(entry, as: serviceType)
                if _slowPath(entry.hasHooks) { try complete(entry, entry.key, instance) }
                return instance
            case .graph:
                if let index = graph.index(of: entry.id) { return graph.value(at: index, as: serviceType) }
                try enter(entry)
                defer { steps.pop() }
                let instance = try produce(entry, as: serviceType)
                graph.keep(instance, for: entry.id)
                if _slowPath(entry.hasHooks) { try complete(entry, entry.key, instance) }
                return instance
            case .container, .custom:
                return try resolveStored(found, as: serviceType)
            case .weak:
                return try resolveWeak(found, as: serviceType)
            }
        }
    }

    @inline(never)
    private func resolveObserved<Service>(_ found: Found, as serviceType: Service.Type) throws -> Service {
        // Held for the whole call, by the caller of the top-level resolve or by `ownedObserver`.
        let observer = unownedObserver.unsafelyUnwrapped
        observer._withUnsafeGuaranteedRef { $0.observer.willResolve(found, path: path) }
        do {
            let instance = try found.unmanagedEntry._withUnsafeGuaranteedRef { entry in
                switch entry.lifetime {
                case .transient, .graph:
                    if entry.lifetime == .graph, let index = graph.index(of: entry.id) {
                        outcome = .sharedInGraph
                        return graph.value(at: index, as: serviceType)
                    }
                    try enter(entry)
                    defer { steps.pop() }
                    let instance = try produce(entry, as: serviceType)
                    if entry.lifetime == .graph { graph.keep(instance, for: entry.id) }
                    if _slowPath(entry.hasHooks) { try complete(entry, entry.key, instance) }
                    outcome = .created
                    return instance
                case .container, .custom:
                    return try resolveStored(found, as: serviceType)
                case .weak:
                    return try resolveWeak(found, as: serviceType)
                }
            }
            observer._withUnsafeGuaranteedRef { $0.observer.didResolve(instance, outcome: outcome) }
            return instance
        } catch {
            observer._withUnsafeGuaranteedRef { $0.observer.didFail(found.entry.key, error: error) }
            throw error
        }
    }

    /// Runs the entry's factory. The caller puts the entry on the path first.
    @inline(__always)
    private func produce<Service>(_ entry: RegistrationEntry, as serviceType: Service.Type) throws -> Service {
        let slot = scratch.push(size: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        defer { scratch.pop(slot) }
        do {
            try entry.make(self, into: slot.pointer)
        } catch {
            throw resolutionError(error, entry, entry.key)
        }
        return slot.pointer.assumingMemoryBound(to: Service.self).move()
    }

    private func resolveStored<Service>(_ found: Found, as serviceType: Service.Type) throws -> Service {
        let entry = found.entry
        let cache = found.cache
        if let box = cache.cachedInstance(for: entry) {
            outcome = .cached
            return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
        }
        let lock = cache.creationLock
        lock.lock()
        defer { lock.unlock() }
        if let box = cache.cachedInstance(for: entry) {
            outcome = .cached
            return unsafeDowncast(box, to: InstanceBox.self).value(as: Service.self)
        }
        try enter(entry)
        defer { steps.pop() }
        let instance = try produce(entry, as: serviceType)
        cache.store(InstanceBox.make(instance), for: entry)
        try complete(entry, entry.key, instance)
        outcome = .created
        return instance
    }

    @inline(never)
    private func resolveWeak<Service>(_ found: Found, as serviceType: Service.Type) throws -> Service {
        let entry = found.entry
        let cache = found.cache
        if let instance = try held(cache.cachedInstance(for: entry), entry.key, as: Service.self) {
            outcome = .cached
            return instance
        }
        let lock = cache.creationLock
        lock.lock()
        defer { lock.unlock() }
        if let instance = try held(cache.cachedInstance(for: entry), entry.key, as: Service.self) {
            outcome = .cached
            return instance
        }
        try enter(entry)
        defer { steps.pop() }
        let instance = try produce(entry, as: serviceType)
        let value = instance as Any
        guard type(of: value) is AnyClass else {
            throw ResolutionError(
                key: entry.key, path: path + [entry.key],
                reason: .weakScopeRequiresClass(actual: type(of: value)), site: entry.site)
        }
        cache.store(WeakInstanceBox(value as AnyObject), for: entry)
        try complete(entry, entry.key, instance)
        outcome = .created
        return instance
    }

    package func resolveAllInPlace<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try source.registrations(ofType: serviceType)
            .filter { !$0.entry.key.takesArguments }
            .map { try resolve($0.entry.key, as: serviceType, found: $0) }
    }

    // MARK: Steps

    package func lookup<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> Lookup? {
        source.lookup(key, in: self) ?? implicitLookup(key, as: serviceType)
    }

    /// The instance of `.graph` scope this resolution made for `entry`, if any.
    package func graphInstance<Service>(for entry: RegistrationEntry, as serviceType: Service.Type) -> Service? {
        graph.index(of: entry.id).map { graph.value(at: $0, as: serviceType) }
    }

    package func keepInGraph<Service>(_ instance: Service, for entry: RegistrationEntry) {
        graph.keep(instance, for: entry.id)
    }

    /// Puts `entry` on the path, unless it is already there: then the path is a cycle.
    @inline(__always)
    package func enter(_ entry: RegistrationEntry) throws {
        if steps.contains(id: entry.id) { throw circularDependency(entry.key) }
        steps.push(entry)
    }

    package func leave() {
        steps.pop()
    }

    @inline(never)
    private func circularDependency(_ key: ServiceKey) -> ResolutionError {
        let keys = path
        let start = keys.firstIndex { $0 == key } ?? keys.startIndex
        return ResolutionError(
            key: key, path: keys + [key], reason: .circularDependency(cycle: Array(keys[start...]) + [key]))
    }

    /// A factory's error as the `ResolutionError` that names the key and the path.
    @inline(never)
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
                try withResolver { try hook($0, instance) }
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
        unownedObserver?._withUnsafeGuaranteedRef { $0.observer.didFail(key, error: error) }
        return error
    }
}

/// A lookup whose entry and cache something else keeps alive for the whole step (the
/// resolution's registry, or the caller's `Lookup`): passing it costs no reference counting.
package struct Found {
    package let unmanagedEntry: Unmanaged<RegistrationEntry>
    package unowned(unsafe) let cache: any InstanceCache
    package let origin: Int

    package var entry: RegistrationEntry { unmanagedEntry.takeUnretainedValue() }

    @inline(__always)
    init(_ lookup: Lookup) {
        unmanagedEntry = Unmanaged.passUnretained(lookup.entry)
        cache = lookup.cache
        origin = lookup.origin
    }

    @inline(__always)
    init(entry: Unmanaged<RegistrationEntry>, cache: any InstanceCache) {
        unmanagedEntry = entry
        self.cache = cache
        origin = 0
    }

    /// Copying the cache from one unowned reference to another costs no reference counting.
    @inline(__always)
    init(entry: Unmanaged<RegistrationEntry>, cache: UnownedCache) {
        unmanagedEntry = entry
        self.cache = cache.value
        origin = 0
    }
}

/// An instance cache that something else keeps alive, held without reference counting.
struct UnownedCache {
    unowned(unsafe) let value: any InstanceCache

    @inline(__always)
    init(_ value: any InstanceCache) {
        self.value = value
    }
}

extension Lookup {
    package init(_ found: Found) {
        self.init(entry: found.entry, cache: found.cache, origin: found.origin)
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
    /// A registration was found and is about to be resolved below `path` (made only if asked
    /// for: recording a trace does not need it, and it costs an allocation per step).
    func willResolve(_ found: Found, path: @autoclosure () -> [ServiceKey])
    /// The step begun by the last unfinished `willResolve` gave `instance`. (Generic, so that an
    /// observer boxes it as `Any` only if it needs to.)
    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome)
    /// The step for `key` failed; when nothing was registered, no `willResolve` came first.
    func didFail(_ key: ServiceKey, error: any Error)
    /// The top-level call is over: no step follows.
    func resolutionEnded()
}

extension ResolutionObserver {
    package func resolutionEnded() {}
}

/// An observer, as a resolution calls it on every step: through an unretained reference to
/// this holder, whose constant `observer` is then called without reference counting. (An
/// existential read from an unowned reference is retained and released around every call.)
package final class ObserverReference: Sendable {
    package let observer: any ResolutionObserver

    package init(_ observer: any ResolutionObserver) {
        self.observer = observer
    }
}

/// A resolution is the resolver its factories receive: nested resolves share its path and graph.
extension Resolution: Resolver {
    package func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
        guard isCurrent else {
            return try source.resolveTopLevel(ServiceKey(serviceType, name: name), as: serviceType)
        }
        if name == nil, let directCache,
            let entry = unownedRegistry.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.plainEntry(for: ObjectIdentifier(serviceType)) })
        {
            return try resolve(Found(entry: entry, cache: directCache), as: serviceType)
        }
        return try resolve(ServiceKey(serviceType, name: name), as: serviceType, found: nil)
    }

    package func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws -> Service {
        let key = ServiceKey(
            serviceType: serviceType, name: name, argumentList: ArgumentTypes<repeat each Argument>.listType)
        guard isCurrent else {
            return try source.resolveTopLevel(key, as: serviceType, arguments: repeat each arguments)
        }
        return try resolve(key, as: serviceType, found: nil, arguments: repeat each arguments)
    }

    package func resolveAll<Service>(_ serviceType: Service.Type) throws -> [Service] {
        guard isCurrent else {
            return try source.resolveAllTopLevel(serviceType)
        }
        return try resolveAllInPlace(serviceType)
    }
}

extension ResolutionSource {
    package func resolveTopLevel<Service>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil
    ) throws -> Service {
        try Resolution.run(source: self) { try $0.resolve(key, as: serviceType, found: found) }
    }

    package func resolveTopLevel<Service, each Argument>(
        _ key: ServiceKey, as serviceType: Service.Type, found: Lookup? = nil, arguments: repeat each Argument
    ) throws -> Service {
        try Resolution.run(source: self) {
            try $0.resolve(key, as: serviceType, found: found, arguments: repeat each arguments)
        }
    }

    package func resolveAllTopLevel<Service>(_ serviceType: Service.Type) throws -> [Service] {
        try Resolution.run(source: self) { try $0.resolveAllInPlace(serviceType) }
    }

    /// Runs `body` with a resolution of its own, as a top-level call does.
    package func withResolution<Result>(_ body: (Resolution) throws -> Result) throws -> Result {
        try Resolution.run(source: self, body)
    }
}

/// A resolution as the `any Resolver` its factories receive, made once per resolution: forming
/// the existential on every step retains and releases the resolution. Its reference to the
/// resolution is not counted, so a resolution does not keep itself alive, and a resolver that
/// escapes a factory (and is counted when copied) still shows in the resolution's count.
final class LentResolver {
    let resolver: any Resolver
    private unowned(unsafe) let resolution: Resolution

    init(_ resolution: Resolution) {
        resolver = resolution
        self.resolution = resolution
        Unmanaged.passUnretained(resolution).release()
    }

    deinit {
        // Freed while the resolution is being freed; destroying `resolver` releases it once
        // more than it was retained here, so give that count back first.
        _ = Unmanaged.passUnretained(resolution).retain()
    }
}
