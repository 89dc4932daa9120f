import Wiring

/// How the core resolves through a test container: it looks up in the layers, keeps instances
/// in them, and has every top-level resolution recorded.
extension TestContainer: ResolutionSource {
    /// The registration for `key`: in the layers `call` began with, if it is one of this test
    /// container's (its store is then the recorder that holds them); else in the layers as they
    /// are now.
    package func lookup(_ key: ServiceKey, in call: ResolutionEnvironment?) -> Lookup? {
        // A resolution of this test container looks up in the layers it began with, and keeps
        // instances through its recorder, which notes why a kept one is made again: every
        // lookup then does, as the plain keys the resolution reads directly do.
        if let call, call.source === self, let recorder = call.store as? TraceRecorder {
            return recorder.snapshot.lookup(key, base: base, in: call, cache: recorder)
        }
        return layers.lookup(key, in: call)
    }

    /// Every registration of the base and the layers, each key once, where its topmost one sits.
    package func visibleRegistrations(includingParents: Bool) -> [Lookup] {
        layers.visibleRegistrations(includingParents: includingParents)
    }

    /// Instances of unregistered (`Injectable`) types live in the layers too, as they are when
    /// the lookup is made.
    package var implicitCache: any InstanceCache { layers.snapshot() }

    /// What a resolution here resolves in: the layers as they are now, every resolution recorded.
    package func makeEnvironment() -> ResolutionEnvironment {
        traces.makeEnvironment(for: self)
    }

    /// What a `ScopeResetter` this test container handed out resets: as ``resetScope(_:)``.
    package func resetKeptInstances(of scope: Scope) {
        layers.resetScope(scope)
    }
}
