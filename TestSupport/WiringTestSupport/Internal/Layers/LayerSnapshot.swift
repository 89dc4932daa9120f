import Wiring

/// The layers of a test container as resolutions see them, top first, with the registries of
/// the base, their overrides and the fakes as they were when it was taken. The layer stack
/// keeps the last one and takes a new one only when the base, a layer, an override or a fake
/// changed, so a top-level resolve neither locks the base or every layer nor allocates.
///
/// It is also the store a resolution through the test container keeps instances in, the one
/// its environment hands the step: the test container's one store, on the shelves of these
/// layers — it looks on every one, top first, under one lock, and stores on the top one.
final class LayerSnapshot: InstanceCache, @unchecked Sendable {
    // Nothing here changes after `init`; the registries it holds are never changed once shared.
    /// Every layer, top first: the task's `withOverrides` layers, the pushed ones, the root.
    let layers: [OverrideLayer]
    /// The task-bound layers it was taken with, top first.
    let bound: [OverrideLayer]
    /// When it was taken, in the test container's count of changes.
    let revision: Int
    /// The layers that have overrides, top first: most have none.
    private let overrides: ContiguousArray<(registry: Registry, origin: Int)>
    /// The fakes' registry (the layers' own over the test container's), unless it is empty (it
    /// mostly is).
    let fakes: Registry?
    /// The registry a resolution looks plain keys up in first: the base's, as it was when this
    /// was taken, with the overrides on top. Every plain key is then either there, or not
    /// overridden nor in the base itself.
    let registry: Registry

    /// The container below the layers, for what answers a key now.
    private let base: Container
    /// The test container's store, a shelf per layer.
    private let instances: InstanceStore
    /// The layers' shelves, top first.
    private let shelves: [Int]
    /// The base's registration the process's mutant changes, unless a layer overrides it.
    let mutation: MutatedRegistration?

    /// The origin of a lookup that found a fake; layers are numbered from 1, the base is 0.
    static let fakeOrigin = -1

    /// A snapshot of `layers` (top first, `bound` the task's among them) over the `base`
    /// container and the `fakes` registry, at `revision`, with `mutant` applied where it changes a
    /// registration no layer overrides.
    init(
        layers: [OverrideLayer], bound: [OverrideLayer], base: Container, instances: InstanceStore, fakes: Registry,
        revision: Int, mutant: WiringMutant? = nil
    ) {
        let baseRegistry = base.registry
        self.base = base
        self.instances = instances
        shelves = layers.map(\.id)
        self.layers = layers
        self.bound = bound
        self.revision = revision
        let overrides = ContiguousArray(layers.lazy.compactMap { layer -> (registry: Registry, origin: Int)? in
            let registry = layer.overrides.registry
            return registry.order.isEmpty ? nil : (registry, layer.id)
        })
        self.overrides = overrides
        self.fakes = fakes.order.isEmpty ? nil : fakes
        // An override is the test's own choice: the mutant leaves a key a layer overrides alone.
        let mutation = mutant.flatMap { MutatedRegistration($0, base: base, fakes: fakes) }.flatMap { mutation in
            overrides.contains { $0.registry[mutation.key] != nil } ? nil : mutation
        }
        self.mutation = mutation
        let liveOnly = baseRegistry.entries.filter(\.options.isLiveOnly)
        if overrides.isEmpty && liveOnly.isEmpty && mutation == nil {
            registry = baseRegistry
        } else {
            var merged = baseRegistry.storage
            if let mutation, baseRegistry[mutation.key] != nil {
                switch mutation.change {
                case .removed:
                    // The storage removes nothing: a copy without the key.
                    merged = Registry().storage
                    for entry in baseRegistry.entries where entry.key != mutation.key {
                        _ = merged.insert(entry)
                    }
                case .replaced(let entry, _):
                    _ = merged.insert(entry)
                }
            }
            // A live-only registration answers only through a fake, or an override (below).
            for entry in liveOnly where entry.key != mutation?.key {
                _ = merged.insert(fakes[entry.key] ?? Refusal.liveOnly(entry, noting: layers.last?.warningLog))
            }
            for layer in overrides.reversed() {
                for entry in layer.registry.entries {
                    _ = merged.insert(entry)
                }
            }
            registry = Registry(merged)
        }
    }

    /// The registration a resolution uses for `key`: the topmost override, else the base's
    /// (as the running `call` first saw it), else a fake; its instances kept in these layers.
    func lookup(_ key: ServiceKey, base: Container, in call: ResolutionEnvironment?) -> Lookup? {
        for layer in overrides {
            if let entry = layer.registry[key] {
                return Lookup(entry: entry, cache: self, origin: layer.origin)
            }
        }
        if let mutation, mutation.key == key {
            if let found = mutation.lookup(cache: self) { return found }
        } else if let found = base.lookup(key, in: call) {
            guard found.entry.options.isLiveOnly else { return Lookup(entry: found.entry, cache: self) }
            if let fake = fakes?[key] { return Lookup(entry: fake, cache: self, origin: Self.fakeOrigin) }
            return Lookup(entry: Refusal.liveOnly(found.entry, noting: layers.last?.warningLog), cache: self)
        }
        if let entry = fakes?[key] {
            return Lookup(entry: entry, cache: self, origin: Self.fakeOrigin)
        }
        return nil
    }

    /// What answers `key` for a resolution starting now, as a kept instance's provenance counts
    /// it (see ``InstanceProvenance``).
    func answer(to key: ServiceKey) -> Lookup? {
        lookup(key, base: base, in: nil)
    }

    /// The layer whose override `entry` is, by origin; 0 for anything else.
    func origin(of entry: RegistrationEntry) -> Int {
        for layer in overrides where layer.registry[entry.key] === entry {
            return layer.origin
        }
        return 0
    }

    /// Whether the app's own registrations (the base or its parents) give `found`: not a
    /// layer's override, a fake, or what a test container stands in with (a refusal, a mutant).
    func isTheApps(_ found: Lookup) -> Bool {
        found.origin == 0 && isTheApps(found.entry)
    }

    /// Whether `entry` is the app's own registration, as the test container found it.
    func isTheApps(_ entry: RegistrationEntry) -> Bool {
        origin(of: entry) == 0 && !isFake(entry) && !entry.options.isRefusal && mutation?.key != entry.key
    }

    /// The layer's fakes `entry` is one of, top first; `nil` for the test container's own.
    func layerFakes(owning entry: RegistrationEntry) -> Fakes? {
        layers.lazy.compactMap(\.layerFakes).first { $0.registry[entry.key] === entry }
    }

    /// Whether `entry` is one of the fakes.
    func isFake(_ entry: RegistrationEntry) -> Bool {
        fakes?[entry.key] === entry
    }

    /// The module replacement that made `entry`, an override of the layer `origin`, if one did:
    /// the replacement module, and the module it replaces.
    func replacement(making entry: RegistrationEntry, inLayer origin: Int) -> (module: ModuleOrigin, replaces: ModuleOrigin)? {
        guard let module = entry.options.module, let layer = layers.first(where: { $0.id == origin }),
            let replaced = layer.replacedModule(by: module)
        else { return nil }
        return (module, replaced)
    }

    /// Whether this snapshot still describes the test container's layers.
    func isCurrent(revision: Int, bound: [OverrideLayer]) -> Bool {
        self.revision == revision && self.bound.elementsEqual(bound, by: ===)
    }

    /// The name of the layer a lookup found its registration in, by origin.
    func layerName(of origin: Int) -> String? {
        if origin == Self.fakeOrigin { return "fakes" }
        return layers.first { $0.id == origin }?.name
    }

    // MARK: InstanceCache

    /// The instance the topmost layer that has one keeps for `entry`, unless an override made
    /// it stale: then `nil`, so that the resolution makes it again, on top.
    func cachedInstance(for entry: RegistrationEntry) -> AnyObject? {
        keptInstance(for: entry).instance
    }

    /// As ``cachedInstance(for:)``; a recorder that follows the step is told why a stale
    /// instance is made again, for the trace.
    func cachedInstance(for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?) -> AnyObject? {
        let (instance, stale) = keptInstance(for: entry)
        if let stale, let recorder = observer as? TraceRecorder { recorder.noteRemade(stale) }
        return instance
    }

    /// The instance the topmost layer that has one keeps for `entry`; or, if an override made
    /// that one stale, why it is not handed out.
    func keptInstance(for entry: RegistrationEntry) -> (instance: AnyObject?, stale: StaleInstance?) {
        guard let kept = keptBox(for: entry) else { return (nil, nil) }
        return kept.stale == nil ? (kept.box, nil) : (nil, kept.stale)
    }

    /// The box the topmost layer that has one keeps for `entry`, that layer, and why an
    /// override made it stale, if one did.
    func keptBox(for entry: RegistrationEntry) -> (box: AnyObject, layer: OverrideLayer, stale: StaleInstance?)? {
        guard let kept = keptWithProvenance(for: entry) else { return nil }
        return (kept.box, kept.layer, kept.madeWith.flatMap { staleness(of: entry, madeWith: $0, keptIn: kept.layer) })
    }

    /// The box the topmost layer that has one keeps for `entry`, that layer, and what the
    /// instance was made with, if that is known yet: one look in the store, on every shelf.
    func keptWithProvenance(
        for entry: RegistrationEntry
    ) -> (box: AnyObject, layer: OverrideLayer, madeWith: InstanceProvenance.MadeWith?)? {
        guard let kept = instances.kept(for: entry, onShelves: shelves),
            let layer = layers.first(where: { $0.id == kept.shelf })
        else { return nil }
        return (kept.box, layer, kept.note as? InstanceProvenance.MadeWith)
    }

    /// An instance found stale: a key it was made with is answered by another registration now.
    struct StaleInstance {
        /// The key, its registration now and where that lives (`layer "offline"`, `the base`).
        let dependency: ServiceKey
        let site: RegistrationSite
        let answeredIn: String
        /// The layer that keeps the instance not handed out.
        let keptIn: String
    }

    /// Why the instance of `entry` that `layer` keeps is stale, if it is.
    private func staleness(
        of entry: RegistrationEntry, madeWith: InstanceProvenance.MadeWith, keptIn layer: OverrideLayer
    ) -> StaleInstance? {
        guard madeWith.registry !== registry || madeWith.fakes !== fakes else { return nil }
        for dependency in madeWith.dependencies.sorted(by: { $0.key.description < $1.key.description }) {
            let now = answer(to: dependency.key)
            guard now?.entry.id != dependency.entryID else { continue }
            if dependency.answeredByTheApp, let now, isTheApps(now) { continue }
            let answeredIn = now.flatMap { layerName(of: $0.origin) }.map { "layer \"\($0)\"" } ?? "the base"
            return StaleInstance(
                dependency: dependency.key, site: now?.entry.site ?? entry.site, answeredIn: answeredIn, keptIn: layer.name)
        }
        return nil
    }

    /// Keeps `entry`'s instance on the top layer's shelf, so that popping it frees the instance.
    func store(_ instance: AnyObject, for entry: RegistrationEntry) {
        store(instance, for: entry, observedBy: nil)
    }

    /// Keeps `entry`'s instance on the top layer's shelf, noting beside it, under the same lock, what it
    /// was made with, which the recorder following the step that made it knows: from the moment
    /// any other resolution can find the instance, an override reaches it.
    func store(_ instance: AnyObject, for entry: RegistrationEntry, observedBy observer: (any ResolutionObserver)?) {
        let madeWith = (observer as? TraceRecorder).flatMap { InstanceProvenance.madeWith(openStepOf: $0.log, snapshot: self) }
        instances.store(instance, for: entry, onShelf: shelves[0], note: madeWith)
    }

    /// The top layer, whose shelf instances made now go on: the same for every snapshot taken
    /// while that layer is on top, so that a claim is one layer's, as the instance it guards.
    var creationStore: AnyObject { layers[0] }
}
