import Wiring

/// A throw-away place to resolve a service in while checking how its scope behaves.
///
/// It finds registrations exactly as the container or test container it wraps does (layers,
/// overrides, fakes, parents), but keeps every instance of a stored scope itself and records
/// nothing: the wrapped container's singletons, trace, resolution counts and unused
/// registrations stay as they were. Dropping the probe drops everything it made.
final class ScopeProbe: ResolutionSource {
    private let source: any ResolutionSource
    /// The probe whose registrations and stored instances a child probe falls back to, as a
    /// child container does with its parent's.
    private let parent: ScopeProbe?
    private let instances = InstanceStore()
    /// What the probe registers itself: the async factory that resolves a service twice.
    private let own = Container()

    init(wrapping source: any ResolutionSource) {
        self.source = source
        self.parent = nil
    }

    /// A probe with no registrations of its own over `parent`, as `Container(parent:)` makes.
    init(childOf parent: ScopeProbe) {
        self.source = parent.source
        self.parent = parent
    }

    /// Drops the instances kept for `scope`, as `resetScope(_:)` does on a container.
    func resetScope(_ scope: Scope) {
        let dropped = instances.reset(scope)
        // Released here, outside the lock: a deinit may well resolve something.
        withExtendedLifetime(dropped) {}
    }

    /// Resolves a service twice inside one top-level resolution, as two dependencies of the
    /// same object would be.
    func resolveTwiceInOneResolution<Service>(_ resolve: (any Resolver) throws -> Service) throws -> (Service, Service) {
        try withResolver { resolver in (try resolve(resolver), try resolve(resolver)) }
    }

    /// Resolves a service with `await` twice inside one top-level resolution, as two awaited
    /// dependencies of one async factory would be: that factory is the probe's own registration.
    nonisolated(nonsending)
    func resolveTwiceInOneAsyncResolution<Service>(
        _ resolve: @escaping @Sendable (AsyncResolver) async throws -> UncheckedSendable<Service>
    ) async throws -> (UncheckedSendable<Service>, UncheckedSendable<Service>) {
        own.registerAsync(ResolvedTwice<Service>.self) { resolver in
            ResolvedTwice(first: try await resolve(resolver), second: try await resolve(resolver))
        }
        let twice = try await AsyncResolver(source: self).resolve(ResolvedTwice<Service>.self)
        return (twice.first, twice.second)
    }

    // MARK: ResolutionSource

    func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup? {
        if let parent { return parent.lookup(key, in: nil) }
        if let found = own.lookup(key, in: nil) { return Lookup(entry: found.entry, cache: instances, origin: found.origin) }
        guard let found = source.lookup(key, in: nil) else { return nil }
        return Lookup(entry: found.entry, cache: instances, origin: found.origin)
    }

    func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        if let parent { return parent.visibleRegistrations(includingParents: includingParents) }
        return source.visibleRegistrations(includingParents: includingParents).map {
            Lookup(entry: $0.entry, cache: instances, origin: $0.origin)
        }
    }

    func implicitCache(for call: ResolutionEnvironment?) -> any InstanceCache { instances }

    func makeEnvironment() -> ResolutionEnvironment { ResolutionEnvironment(source: self) }

    func resetKeptInstances(of scope: Scope) {
        resetScope(scope)
    }
}

/// Two instances of a service resolved inside one async factory.
private struct ResolvedTwice<Service>: Sendable {
    let first: UncheckedSendable<Service>
    let second: UncheckedSendable<Service>
}
