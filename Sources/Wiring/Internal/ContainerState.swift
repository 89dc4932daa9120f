/// A container's registrations, the registry resolutions read, and who is told of changes:
/// the state its lock guards (see `Container`).
struct ContainerState {
    /// The registrations, changed in place under the lock.
    var registry = RegistryStorage()
    /// What resolutions read: made from `registry` when first asked for after a change.
    var published: Registry?
    var appliedModules: [ModuleOrigin] = []
    var replaced: [Container.ReplacedRegistration] = []
    /// Told when the registrations change; see `observeChanges`.
    var observers: [any RegistrationObserver] = []
    /// Told of each registration added or changed; see ``RegistrationBehavior``.
    var behaviors: [any RegistrationBehavior] = []

    /// The registrations, for reading outside the lock: never changed once made.
    var sharedRegistry: Registry {
        mutating get {
            if let published { return published }
            let made = Registry(registry)
            published = made
            return made
        }
    }

    /// Stores `entry` under its key, returning the entry it replaces; resolutions that
    /// started before keep reading the registrations they saw.
    mutating func insert(_ entry: RegistrationEntry) -> RegistrationEntry? {
        published = nil
        return registry.insert(entry)
    }

    /// Empties the kept boxes of the stored scopes `matching` says yes to, returning what they held.
    mutating func takeInstances(matching: (Scope) -> Bool) -> [AnyObject] {
        var taken: [AnyObject] = []
        for entry in registry.entries where matching(entry.scope) {
            taken += entry.takeKeptInstances()
        }
        return taken
    }
}
