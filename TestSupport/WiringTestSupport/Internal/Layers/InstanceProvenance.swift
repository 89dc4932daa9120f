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
    }

    /// What one instance was made with.
    struct MadeWith: Sendable {
        /// The registry the resolution that made it looked up in: while a lookup uses the same
        /// one, nothing it depends on can have changed.
        let registry: Registry
        /// What it was made with; `nil` until the resolution that made it ends, which
        /// ``record(from:snapshot:madeBy:)`` then notes.
        let dependencies: Set<Dependency>?
        /// The recorder of the resolution still making it, while `dependencies` is `nil`.
        let maker: ObjectIdentifier?

        /// What an instance a running resolution just published was made with, as far as is
        /// known before that resolution ends: the registry it looked up in.
        static func publishing(in registry: Registry, by maker: (any ResolutionObserver)?) -> MadeWith {
            MadeWith(registry: registry, dependencies: nil, maker: maker.map { ObjectIdentifier($0) })
        }
    }

    /// Notes what the kept instances made by the resolution `log` recorded were made with:
    /// every key resolved below each, and what the cached instances among those were made with
    /// in turn. The resolution began with `snapshot`, whose top layer keeps what it made;
    /// `recorder` recorded it, and an instance is noted only if it is still the one that
    /// resolution published (see ``MadeWith/publishing(in:by:)``).
    static func record(from log: StepLog, snapshot: LayerSnapshot, madeBy recorder: TraceRecorder) {
        let maker = ObjectIdentifier(recorder)
        let recorded = log.recorded
        let steps = recorded.steps
        let topLayer = snapshot.layers[0]
        for (index, step) in steps.enumerated() where step.outcome == .created {
            guard let entry = recorded.entry(of: step), entry.policy.keepsInstances else { continue }
            var dependencies = Set<Dependency>()
            for below in recorded.descendants(of: index) {
                let used = recorded.entry(of: steps[below])
                dependencies.insert(dependency(recorded.key(at: below), usedEntry: used, snapshot: snapshot))
                if steps[below].outcome == .cached, let used,
                    let inherited = snapshot.keptWithProvenance(for: used)?.madeWith?.dependencies
                {
                    dependencies.formUnion(inherited)
                }
            }
            let madeWith = MadeWith(registry: snapshot.registry, dependencies: dependencies, maker: nil)
            topLayer.cache.note(madeWith, for: entry) { ($0 as? MadeWith)?.maker == maker }
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
        guard let used, used.options.isImplicit else { return Dependency(key: key, entryID: used?.id) }
        guard let resolved = key.resolvedLater else { return Dependency(key: key, entryID: nil) }
        return Dependency(key: resolved, entryID: snapshot.answer(to: resolved)?.entry.id)
    }
}
