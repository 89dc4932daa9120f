import Wiring

extension TraceRecorder {
    /// Notes a `resolver-bypass` warning: the factory (or a hook) of `entry`, running in the
    /// resolution this recorder follows, resolved `key` from `source`, a container it captured,
    /// instead of through the resolver it was given. What that call makes comes from `source`'s
    /// registrations, out of reach of the test container's overrides (the warning names the
    /// one it missed), and is not recorded in its trace.
    ///
    /// The warning goes to the test container's root layer, the last of the layers this
    /// recorder serves: a recorder holds no reference to its test container.
    func factory(of entry: RegistrationEntry, resolved key: ServiceKey?, from source: any ResolutionSource) {
        let missed = key.flatMap { key in
            snapshot.layers.lazy.compactMap { layer in
                layer.overrides.registry[key].map { WiringWarning.MissedOverride(layer: layer.name, site: $0.site) }
            }.first
        }
        snapshot.layers.last?.warningLog.note(.resolverBypass(by: entry, resolving: key, missed: missed))
    }
}
