import Wiring

/// How the core resolves through a test container: it looks up in the layers, keeps instances
/// in them, and has every top-level resolution recorded.
extension TestContainer: ResolutionSource {
    /// The registration for `key`: in the layers the call began with, if it is one of this test
    /// container's (they are then its environment's store); else in the layers as they are now.
    package func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup? {
        // A resolution of this test container looks up in the layers it began with, as the plain
        // keys it reads directly in their registry do.
        if let snapshot = snapshot(of: call) { return snapshot.lookup(key, base: base, in: call) }
        return layers.lookup(key, in: call)
    }

    /// Every registration of the base and the layers, each key once, where its topmost one sits.
    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        layers.visibleRegistrations(includingParents: includingParents)
    }

    /// Instances of unregistered (`Injectable`) types live in the layers too: those the call
    /// began with, if it is one of this test container's, as registered types' do.
    package func implicitCache(for call: ResolutionEnvironment?) -> any InstanceCache {
        snapshot(of: call) ?? layers.snapshot()
    }

    /// The layers `call` began with, if it is a call of this test container (they are then its
    /// environment's store).
    private func snapshot(of call: ResolutionEnvironment?) -> LayerSnapshot? {
        guard let call, call.source === self else { return nil }
        return call.store as? LayerSnapshot
    }

    /// What a resolution here resolves in: the layers as they are now, every resolution recorded.
    package func makeEnvironment() -> ResolutionEnvironment {
        traces.makeEnvironment(for: self)
    }

    /// What a `ScopeResetter` this test container handed out resets: as ``resetScope(_:)``.
    package func resetKeptInstances(of scope: Scope) {
        layers.resetScope(scope)
    }
}
