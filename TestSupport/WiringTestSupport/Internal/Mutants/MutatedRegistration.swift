import Wiring

/// The registration of a test container's base that a ``WiringMutant`` changes, and what
/// stands in for it: found once per ``LayerSnapshot``, only when a mutant is active.
struct MutatedRegistration {
    /// What resolutions find for the key instead of the base's registration.
    enum Change {
        /// Nothing: the key resolves as if the base never registered it (a fake or an
        /// `Injectable` default may still answer, as they would then).
        case removed
        /// Another entry: the same factory made anew on every resolve, or a fake.
        case replaced(RegistrationEntry, isFake: Bool)
    }

    /// The base's registration the mutant names.
    let original: RegistrationEntry
    let change: Change

    var key: ServiceKey { original.key }

    /// The change `mutant` makes to `base` (its parents included), with `fakes` the test
    /// container's; `nil` where it changes nothing: no such key, or a kind that does not apply.
    init?(_ mutant: WiringMutant, base: Container, fakes: Registry) {
        guard let original = base.visibleRegistrations(includingParents: true).lazy.map(\.entry)
            .first(where: { !$0.options.isImplicit && $0.key.names(mutant.key) })
        else { return nil }
        switch mutant.kind {
        case .unshare:
            guard Self.isKept(original) else { return nil }
            var options = original.options
            options.scope = .transient
            change = .replaced(original.copy(options: options), isFake: false)
        case .unregister:
            change = .removed
        case .fake:
            if let fake = fakes[original.key] {
                change = .replaced(fake, isFake: true)
            } else if Self.hasInjectableDefault(original) {
                // Without the registration, the type's own `init(resolver:)` answers.
                change = .removed
            } else {
                return nil
            }
        }
        self.original = original
    }

    /// Whether `entry` keeps an instance that resolves share: any scope but `.transient`.
    static func isKept(_ entry: RegistrationEntry) -> Bool {
        entry.scope != .transient
    }

    /// Whether the type of `entry` answers for itself once unregistered: an `Injectable`, under
    /// a plain key.
    static func hasInjectableDefault(_ entry: RegistrationEntry) -> Bool {
        entry.key.isPlain && entry.madeType is any Injectable.Type
    }

    /// Whether a `fake` mutant applies to `entry`, in a test container whose fakes are `fakes`.
    static func canFake(_ entry: RegistrationEntry, fakes: Registry) -> Bool {
        fakes[entry.key] != nil || hasInjectableDefault(entry)
    }

    /// The lookup that answers the key instead, if any, its instances kept in `cache`.
    func lookup(cache: any InstanceCache) -> Lookup? {
        switch change {
        case .removed: nil
        case .replaced(let entry, let isFake):
            Lookup(entry: entry, cache: cache, origin: isFake ? LayerSnapshot.fakeOrigin : 0)
        }
    }
}

extension ServiceKey {
    /// Whether a mutant naming `key` means this one: as coverage names it, by its description,
    /// or with its module where two types of one name share a site (see `CoverageRecord`).
    fileprivate func names(_ key: String) -> Bool {
        description == key || (key.count > description.count && moduleQualifiedDescription == key)
    }
}
