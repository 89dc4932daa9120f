import Wiring

/// What each kept instance of a test container was made with: the registrations that answered
/// every key resolved below it, at any depth, noted beside the instance in the store of the
/// layer that keeps it. A lookup that finds an instance compares them with what answers those
/// keys now; if an override changed one, the instance is not handed out but made again on top
/// (see ``LayerSnapshot``), so an override reaches even what was cached before it.
enum InstanceProvenance {
    /// A key resolved below an instance, and the registration that answered it then.
    struct Dependency: Hashable, Sendable {
        let key: ServiceKey
        /// `nil` when nothing answered it (an optional dependency, say).
        let entryID: Int?
        /// Whether the app's own registrations answered it (the base or its parents), not a
        /// layer's override or a fake: the app registering it again later changes nothing for
        /// the instance, as the app's container keeps its instance then.
        let answeredByTheApp: Bool
    }

    /// What one instance was made with.
    struct MadeWith: Sendable {
        /// The registry and the fakes the resolution that made it looked up in: while a lookup
        /// uses the same ones, nothing it depends on can have changed.
        let registry: Registry
        let fakes: Registry?
        let dependencies: Set<Dependency>
    }

    /// What the instance the innermost open step of `log` publishes was made with: every key
    /// resolved below it, and what the cached instances among those were made with in turn. Its
    /// resolution began with `snapshot`. Asked as the instance is published, so that it is known
    /// from the moment any other resolution can find the instance.
    static func madeWith(openStepOf log: StepLog, snapshot: LayerSnapshot) -> MadeWith? {
        log.withOpenStep { recorded, index in
            var dependencies = Set<Dependency>()
            let steps = recorded.steps
            for below in recorded.descendants(of: index) {
                let used = recorded.entry(of: steps[below])
                dependencies.insert(dependency(recorded.key(at: below), usedEntry: used, snapshot: snapshot))
                if steps[below].outcome == .cached, let used, let inherited = snapshot.keptWithProvenance(for: used)?.madeWith {
                    dependencies.formUnion(inherited.dependencies)
                }
            }
            return MadeWith(registry: snapshot.registry, fakes: snapshot.fakes, dependencies: dependencies)
        }
    }

    /// How a key resolved below a kept instance counts for its provenance. A registration of
    /// the app or the test is itself. An implicit one is answered by nothing registered (`nil`),
    /// so that an override of it later counts as a change; and a `Provider` or a `Lazy` counts as
    /// what it resolves, answered by whatever answers that in the layers now: what the instance
    /// will get from it is what changes with an override.
    private static func dependency(
        _ key: ServiceKey, usedEntry used: RegistrationEntry?, snapshot: LayerSnapshot
    ) -> Dependency {
        guard let used, used.options.isImplicit else {
            return Dependency(key: key, entryID: used?.id, answeredByTheApp: used.map(snapshot.isTheApps) ?? false)
        }
        guard let resolved = key.resolvedLater else { return Dependency(key: key, entryID: nil, answeredByTheApp: false) }
        let answer = snapshot.answer(to: resolved)
        return Dependency(key: resolved, entryID: answer?.entry.id, answeredByTheApp: answer.map(snapshot.isTheApps) ?? false)
    }
}
