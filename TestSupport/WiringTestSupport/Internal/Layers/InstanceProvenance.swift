import Wiring

/// What each kept instance of a test container was made with, by the layer that keeps it: the
/// registrations that answered every key resolved below it, at any depth. A lookup that finds
/// an instance compares them with what answers those keys now; if an override changed one, the
/// instance is not handed out but made again on top (see ``LayerSnapshot``), so an override
/// reaches even what was cached before it.
final class InstanceProvenance: Sendable {
    /// A key resolved below an instance, and the registration that answered it then.
    struct Dependency: Hashable {
        let key: ServiceKey
        /// `nil` when nothing answered it (an optional dependency, say).
        let entryID: Int?
    }

    /// What one instance was made with.
    struct MadeWith {
        /// The registry the resolution that made it looked up in: while a lookup uses the same
        /// one, nothing it depends on can have changed.
        let registry: Registry
        let dependencies: Set<Dependency>
    }

    private struct Key: Hashable {
        let layer: Int
        let entry: Int
    }

    private let table = LockedState<[Key: MadeWith]>([:])

    /// Remembers what the instance of `entry` that `layer` keeps was made with.
    func record(_ madeWith: MadeWith, layer: Int, entry: Int) {
        table.withLock { $0[Key(layer: layer, entry: entry)] = madeWith }
    }

    /// What the instance of `entry` that `layer` keeps was made with, if known.
    func madeWith(layer: Int, entry: Int) -> MadeWith? {
        table.withLock { $0[Key(layer: layer, entry: entry)] }
    }

    /// Forgets what the instances of `layer` were made with, as it drops them.
    func forget(layer: Int) {
        table.withLock { table in table = table.filter { $0.key.layer != layer } }
    }

    /// Remembers what the kept instances made by the resolution `log` recorded were made with:
    /// every key resolved below each, and what the cached instances among those were made with
    /// in turn. The resolution began with `snapshot`, whose top layer keeps what it made.
    func record(from log: StepLog, snapshot: LayerSnapshot) {
        let recorded = log.recorded
        let steps = recorded.steps
        let topLayer = snapshot.layers[0].id
        for (index, step) in steps.enumerated() where step.outcome == .created {
            guard let entry = recorded.entry(of: step), entry.policy.keepsInstances else { continue }
            var dependencies = Set<Dependency>()
            for below in recorded.descendants(of: index) {
                let used = recorded.entry(of: steps[below])
                dependencies.insert(Self.dependency(recorded.key(at: below), usedEntry: used, snapshot: snapshot))
                if steps[below].outcome == .cached, let used, let inherited = madeWith(used, in: snapshot) {
                    dependencies.formUnion(inherited.dependencies)
                }
            }
            record(MadeWith(registry: snapshot.registry, dependencies: dependencies), layer: topLayer, entry: entry.id)
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

    /// What the instance of `entry` that the topmost layer of `snapshot` keeping one was made with.
    private func madeWith(_ entry: RegistrationEntry, in snapshot: LayerSnapshot) -> MadeWith? {
        for layer in snapshot.layers {
            if let madeWith = madeWith(layer: layer.id, entry: entry.id) { return madeWith }
        }
        return nil
    }
}
