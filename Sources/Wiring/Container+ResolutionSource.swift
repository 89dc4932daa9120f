/// Told when a container's registrations change; see `Container.observeChanges`.
package protocol RegistrationObserver: AnyObject, Sendable {
    /// Whether it still wants to be told; one that does not is dropped.
    var isObserving: Bool { get }
    /// The registrations changed.
    func registrationsChanged()
}

extension Container: ResolutionSource {
    /// A top-level call from here reads this container's registrations as they are when it starts.
    package func makeEnvironment() -> ResolutionEnvironment {
        environment(reading: registry)
    }

    /// The environment of a call that reads `registry`, this container's registrations.
    func environment(reading registry: Registry) -> ResolutionEnvironment {
        ResolutionEnvironment(source: self, registry: registry, store: self, observer: nil)
    }

    /// The registration for `key` here or in the nearest ancestor that has one; a resolution
    /// from this container reads each registry as the call first saw it.
    package func lookup(_ key: ServiceKey, in resolution: Resolution?) -> Lookup? {
        let reading = resolution.flatMap { $0.source === self ? $0 : nil }
        var container = self
        var level = 0
        while true {
            let registry = reading?.registry(of: container, at: level) ?? container.registry
            if let entry = registry[key] {
                return Lookup(entry: entry, cache: container)
            }
            guard let parent = container.parent else { return nil }
            container = parent
            level += 1
        }
    }

    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        let own = registry.entries.map { Lookup(entry: $0, cache: self) }
        guard includingParents, let parent else { return own }
        let shadowed = Set(own.map(\.entry.key))
        return parent.visibleRegistrations(includingParents: true).filter { !shadowed.contains($0.entry.key) } + own
    }

    package var implicitCache: any InstanceCache { implicitInstances }

}
