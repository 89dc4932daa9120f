import Wiring

/// Notices the "my mock is ignored" problem: a kept instance handed out after something it was
/// made with was overridden, so that it still holds the old dependency.
///
/// Remembers, for each kept instance a resolution made, the registrations used below it; when
/// a later resolution finds that instance cached, compares them with what the layers give now.
final class StaleInstanceCheck: Sendable {
    /// A registration used below a kept instance when it was made.
    private struct Dependency {
        /// The key it was resolved for.
        let key: ServiceKey
        /// The registration that answered the key then; `nil` when none did.
        let entryID: Int?
    }

    /// The layers whose overrides make an instance stale.
    private let layers: LayerStack
    /// For each kept instance made so far, by registration id: what it was made with.
    private let madeWith = LockedState<[Int: [Dependency]]>([:])

    /// A check against the overrides of `layers`.
    init(layers: LayerStack) {
        self.layers = layers
    }

    /// Remembers what the kept instances `log` saw made were made with, and gives each step that
    /// returned a cached one whose dependencies are overridden now, against the layers as they
    /// are now, with those dependencies; `nil` when there is none.
    func check(_ log: UnsafeStepLog) -> [Int: [TraceRecorder.StaleDependency]]? {
        let steps = (0..<log.count).map { log[$0] }
        var staleByStep: [Int: [TraceRecorder.StaleDependency]] = [:]
        // Made ones first: a step may come across an instance made earlier in the same resolution.
        for (index, step) in steps.enumerated() where step.outcome == .created {
            guard let entry = log.entry(of: step), entry.policy.keepsInstances else { continue }
            let used = log.descendants(of: index).map {
                Dependency(key: log.key(at: $0), entryID: log.entry(of: steps[$0])?.id)
            }
            madeWith.withLock { $0[entry.id] = used }
        }
        for (index, step) in steps.enumerated() where step.outcome == .cached {
            guard let entry = log.entry(of: step), entry.policy.keepsInstances else { continue }
            let stale = staleDependencies(of: entry.id)
            if !stale.isEmpty { staleByStep[index] = stale }
        }
        return staleByStep.isEmpty ? nil : staleByStep
    }

    /// The dependencies of the kept instance of registration `entryID` that a different
    /// registration answers now.
    private func staleDependencies(of entryID: Int) -> [TraceRecorder.StaleDependency] {
        guard let madeWith = madeWith.withLock({ $0[entryID] }) else { return [] }
        var stale: [TraceRecorder.StaleDependency] = []
        for dependency in madeWith {
            guard let now = layers.lookup(dependency.key), now.entry.id != dependency.entryID else { continue }
            stale.append(TraceRecorder.StaleDependency(
                key: dependency.key, overriddenIn: layers.layerName(of: now).map { "layer \"\($0)\"" } ?? "the base",
                site: now.entry.site))
        }
        return stale
    }
}
