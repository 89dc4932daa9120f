/// A ``Resolution``'s state, read and written without dynamic exclusivity checks.
/// Invariant: one thread at a time uses a resolution, and never two accesses at once: a
/// synchronous resolution only on the thread whose slot holds it, an async one only in the task
/// that holds its turn (`Resolution.takeAsyncTurn`), or on the thread it lends itself to while
/// that task waits. Debug builds check on every step (`Resolution.isUsedByItsOwner`, asserted
/// in `Resolution.enter`) the thread, or that a turn is taken (not which task took it).
package class UnsafeResolutionState {
    @exclusivity(unchecked) final var state: ResolutionState
    /// The running call's source, apart from `state`: a resolver of the call used on another
    /// thread reads it under `Resolution.escape`'s lock meanwhile.
    @exclusivity(unchecked) final var callSource: (any ResolutionSource)?
    /// This resolution as its factories' resolver: retained by `lend(_:)`, released in `deinit`.
    @exclusivity(unchecked) private final var lent: Unmanaged<LentResolver>?

    init(stackFloor: UInt) {
        state = ResolutionState(stackFloor: stackFloor)
    }

    deinit {
        lent?.release()
        state.graph.deallocate()
        state.steps.deallocate()
    }

    /// Makes the resolver this resolution lends its factories; once, from `init`.
    final func lend(_ resolution: Resolution) {
        precondition(lent == nil && resolution === self, "a resolution lends one resolver, its own, for its whole life")
        lent = .passRetained(LentResolver(resolution))
    }

    /// Runs `entry`'s factory with this resolution as its resolver and `entry` as the `TypedEntry`
    /// that makes `Service`s, both borrowed, in one function. `entry` must make `Service`s:
    /// checked in every build by the type the entry records, without a dynamic cast.
    @inline(__always)
    final func make<Service>(
        _ entry: RegistrationEntry, in resolution: Resolution, as serviceType: Service.Type
    ) throws -> Service {
        assert(resolution === self, "a resolution makes its own instances")
        precondition(entry.madeType == Service.self, "the registration of \(entry.key) does not make a \(Service.self)")
        return try lent.unsafelyUnwrapped._withUnsafeGuaranteedRef { lent in
            try Unmanaged.passUnretained(entry)._withUnsafeGuaranteedRef { entry in
                try unsafeDowncast(entry, to: TypedEntry<Service>.self).make(resolution, resolver: lent.resolver)
            }
        }
    }

    /// Starts a top-level call in `environment`, held until the call ends (see `Resolution.reset`).
    final func begin(in environment: consuming ResolutionEnvironment) {
        callSource = environment.source
        state.registry = environment.registry
        state.directCache = environment.store
        state.observer = environment.observer
        state.isActive = true
    }
}

/// A resolution as the `any Resolver` its factories receive, made once: an existential formed on
/// every step would retain and release the resolution.
///
/// Invariant: `resolver` holds the resolution uncounted (given back in `init`, taken again in
/// `deinit`), so a resolution does not keep itself alive, and a resolver that escapes a factory
/// (counted when copied) shows in the resolution's count. Only its resolution holds it.
private final class LentResolver {
    let resolver: any Resolver
    private unowned(unsafe) let resolution: Resolution

    init(_ resolution: Resolution) {
        resolver = resolution
        self.resolution = resolution
        Unmanaged.passUnretained(resolution).release()
    }

    deinit {
        _ = Unmanaged.passUnretained(resolution).retain()  // which destroying `resolver` releases
    }
}
