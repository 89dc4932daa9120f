import Wiring

extension TestContainer {
    /// Builds every registration the test container sees once, each in its own resolution, in a
    /// throw-away sandbox, and reports every problem at once.
    ///
    /// Checks the base container, its parents, the test container's own registrations and the
    /// overrides of the current layers. Nothing survives the check: no singleton is kept (the
    /// next `resolve` runs the factory again), the trace, resolution counts and unused
    /// registrations stay as they were. Registrations that take runtime arguments are listed as
    /// unchecked, which leaves the report incomplete; ``verifyWiring(samples:)`` builds them with
    /// sample arguments. Called on the main actor (a `@MainActor` test), it builds main-actor
    /// factories there too; async ones need ``verifyWiringAsync(samples:)``.
    ///
    /// ```swift
    /// let report = TestContainer(base: makeAppContainer()).verifyWiring()
    /// #expect(report.isComplete, "\(report)")
    /// ```
    public func verifyWiring() -> WiringReport {
        verifyWiring { _ in }
    }

    /// Builds every registration once in a throw-away sandbox, as ``verifyWiring()`` does,
    /// building those that take runtime arguments with the sample arguments given.
    ///
    /// ```swift
    /// let report = test.verifyWiring { samples in
    ///     samples.add(ProductViewModel.self, arguments: 42)
    /// }
    /// ```
    /// - Parameter samples: Adds sample arguments for registrations that take them.
    public func verifyWiring(samples: (inout VerificationSamples) -> Void) -> WiringReport {
        WiringVerifier(test: self, samples: VerificationSamples(samples)).run()
    }

    /// Builds every registration once in a throw-away sandbox, as ``verifyWiring(samples:)``
    /// does, and also those whose factory (or a dependency's) must be awaited
    /// (`registerAsync`, `registerMainActor`), as `container.async.resolve` would: only then
    /// can a report of an app with async factories be complete.
    ///
    /// ```swift
    /// let report = await test.verifyWiringAsync()
    /// #expect(report.isComplete, "\(report)")
    /// ```
    ///
    /// Each factory runs in its own isolation: main-actor factories, and the synchronous ones
    /// an app resolves from main-actor code, run on the main actor; async ones are awaited. A
    /// synchronous factory that needs an async one is a problem here (`requires-await`):
    /// nothing can resolve it synchronously. It runs on the main actor, so a `@MainActor` test
    /// passes main-actor values in its samples; any other test awaits it.
    @MainActor
    public func verifyWiringAsync() async -> WiringReport {
        await verifyWiringAsync { _ in }
    }

    /// Builds every registration once, as ``verifyWiringAsync()`` does, building those that
    /// take runtime arguments with the sample arguments given (awaited where they must be).
    /// - Parameter samples: Adds sample arguments for registrations that take them.
    @MainActor
    public func verifyWiringAsync(samples: (inout VerificationSamples) -> Void) async -> WiringReport {
        await WiringVerifier(test: self, samples: VerificationSamples(samples)).runAwaitingFactories()
    }
}
