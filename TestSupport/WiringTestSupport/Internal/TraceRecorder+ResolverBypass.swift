import Wiring

extension TraceRecorder {
    /// Notes a `resolver-bypass` warning: the factory (or a hook) of `entry`, running in the
    /// resolution this recorder follows, started a call on `source`, a container it captured,
    /// instead of resolving through the resolver it was given. What that call makes comes from
    /// `source`'s registrations, out of reach of the test container's overrides, and is not
    /// recorded in its trace.
    ///
    /// The warning goes to the test container's root layer, the last of the layers this
    /// recorder serves: a recorder holds no reference to its test container.
    func factory(of entry: RegistrationEntry, resolvedFrom source: any ResolutionSource) {
        snapshot.layers.last?.warningLog.note(.resolverBypass(by: entry))
    }
}
