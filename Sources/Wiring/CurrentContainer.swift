extension Container {
    /// The resolver `@Injected` and `@LazyInjected` use in this task, when one is bound.
    ///
    /// Bind it with ``withCurrent(_:operation:)``; tasks created inside inherit it,
    /// so tests running in parallel can each bind their own.
    @TaskLocal public static var current: (any Resolver)?

    private static let sharedResolver = LockedState<(any Resolver)?>(nil)

    /// The process-wide resolver property wrappers fall back to when no task binds one.
    /// Set it once, at launch:
    ///
    /// ```swift
    /// Container.shared = makeAppContainer()
    /// ```
    public static var shared: (any Resolver)? {
        get { sharedResolver.withLock { $0 } }
        set {
            sharedResolver.withLock { $0 = newValue }
            onSharedAssigned?(newValue)
        }
    }

    /// The resolver property wrappers use here: the container (or test container) whose
    /// resolution runs on this thread, when a factory makes the object (its needs are then that
    /// registration's, overridden and recorded as the factory's own resolves are); else the
    /// task's; else the process-wide one.
    public static var injectionResolver: (any Resolver)? {
        if let running = ResolutionThread.runningSource { return running }
        if let current { return current }
        guard let shared else { return nil }
        onSharedFallback?(shared)
        return shared
    }

    /// Runs `operation` with `resolver` as ``current`` for this task and the tasks it creates.
    ///
    /// ```swift
    /// let screen = Container.withCurrent(container) { CheckoutScreen() }   // its @Injected use `container`
    /// ```
    public static func withCurrent<Result>(
        _ resolver: any Resolver, operation: () throws -> Result
    ) rethrows -> Result {
        try $current.withValue(resolver, operation: operation)
    }

    /// Runs async `operation` with `resolver` as ``current`` for this task and the tasks it creates.
    public static func withCurrent<Result>(
        _ resolver: any Resolver,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $current.withValue(resolver, operation: operation)
    }
}
