/// Told when a container's registrations change; see `Container.observeChanges`.
package protocol RegistrationObserver: AnyObject, Sendable {
    /// Whether it still wants to be told; one that does not is dropped.
    var isObserving: Bool { get }
    /// The registrations changed: `updated`, when the change gave a registration new options
    /// (its copy, replacing it, as a container then lets go of what it kept for it).
    func registrationsChanged(updating updated: RegistrationEntry?)
}

extension Container: ResolutionSource {
    package func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup? {
        var container = self
        var level = 0
        while true {
            let registry = call?.registry(at: level) { container.registry } ?? container.registry
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

    package func implicitCache(for call: ResolutionEnvironment?) -> any InstanceCache { implicitInstances }

    package func makeEnvironment() -> ResolutionEnvironment {
        ResolutionEnvironment(source: self, registry: registry, store: self)
    }
}
