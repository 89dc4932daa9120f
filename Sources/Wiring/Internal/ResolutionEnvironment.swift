/// What one top-level call resolves in: where it starts, where its plain keys are looked up
/// first and their kept instances live, and who follows its steps. Its source builds one per
/// call (``ResolutionSource/makeEnvironment()``) and hands it to `Resolution.run(from:in:sharing:_:)` (or
/// `runAsync(in:)`), the only ways a call starts; the resolution holds it strongly until the
/// call ends. Nested resolves, `Provider`s, `Lazy`s, async turns and child containers continue it.
/// A source's lookup made for a running call sees the call's environment
/// (``ResolutionSource/lookup(_:in:)``).
package struct ResolutionEnvironment {
    /// The container (or test container, or other source) the call resolves from.
    package let source: any ResolutionSource
    /// The registry plain keys are looked up in first, as the source's own registrations are
    /// for this call; `nil` when every lookup goes through the source.
    package let registry: Registry?
    /// Where the instances of entries found in `registry` are kept; given with `registry`.
    package let store: (any InstanceCache)?
    /// What follows the call's steps, such as a test container's recorder; `nil` for a plain
    /// container, where the steps cost nothing more.
    package let observer: (any ResolutionObserver)?
    /// The call running in this environment, when a lookup sees it: where the registries of the
    /// source's ancestors are kept as the call first saw them.
    private let call: Resolution?

    /// - Parameters:
    ///   - source: Where the call resolves from.
    ///   - registry: The registry plain keys are looked up in first, if any.
    ///   - store: Where the instances of `registry`'s entries live; given with `registry`.
    ///   - observer: What follows the steps, if anything.
    package init(
        source: any ResolutionSource, registry: Registry? = nil, store: (any InstanceCache)? = nil,
        observer: (any ResolutionObserver)? = nil
    ) {
        precondition((registry == nil) == (store == nil), "an environment's registry comes with the store of its instances")
        self.source = source
        self.registry = registry
        self.store = store
        self.observer = observer
        self.call = nil
    }

    /// The environment `call` runs in, as its lookups see it.
    init(of call: Resolution) {
        source = call.source
        registry = call.state.registry
        store = call.state.directCache
        observer = call.state.observer
        self.call = call
    }

    /// This environment, its steps followed by `observer` instead.
    func observed(by observer: any ResolutionObserver) -> ResolutionEnvironment {
        ResolutionEnvironment(source: source, registry: registry, store: store, observer: observer)
    }

    /// The registry of the container `level` steps up from the source (0: the source's own), as
    /// the running call first saw it: `fetch` gives it the first time, or every time outside a call.
    func registry(at level: Int, fetch: () -> Registry) -> Registry {
        call?.registry(at: level, fetch: fetch) ?? fetch()
    }
}
