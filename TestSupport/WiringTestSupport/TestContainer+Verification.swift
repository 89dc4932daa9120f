import Wiring

extension TestContainer {
    /// Builds every registration the test container sees once, each in its own resolution, in a
    /// throw-away sandbox, and reports every problem at once.
    ///
    /// Checks the base container, its parents, the test container's own registrations and the
    /// overrides of the current layers. Nothing survives the check: no singleton is kept (the
    /// next `resolve` runs the factory again), the trace, resolution counts and unused
    /// registrations stay as they were. Registrations that take runtime arguments are listed as
    /// unchecked, which leaves the report incomplete, unless `samples` gives them sample
    /// arguments. Called on the main actor (a `@MainActor` test), it builds main-actor
    /// factories there too; async ones need ``verifyWiringAsync(samples:)``.
    ///
    /// ```swift
    /// let report = TestContainer(base: makeAppContainer()).verifyWiring()
    /// #expect(report.isComplete, "\(report)")
    /// let withSamples = test.verifyWiring { samples in
    ///     samples.add(ProductViewModel.self, arguments: 42)
    /// }
    /// ```
    /// - Parameter samples: Adds sample arguments for registrations that take them; none by
    ///   default.
    public func verifyWiring(samples: (inout VerificationSamples) -> Void = { _ in }) -> WiringReport {
        let report = WiringVerifier(test: self, samples: VerificationSamples(samples)).run()
        noteWholeGraphCheck("verifyWiring", checked: report.checked, problems: report.problems.count)
        return report
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
    /// - Parameter samples: Adds sample arguments for registrations that take them (awaited
    ///   where they must be); none by default.
    @MainActor
    public func verifyWiringAsync(samples: (inout VerificationSamples) -> Void = { _ in }) async -> WiringReport {
        let report = await WiringVerifier(test: self, samples: VerificationSamples(samples)).runAwaitingFactories()
        noteWholeGraphCheck("verifyWiringAsync", checked: report.checked, problems: report.problems.count)
        return report
    }
}
