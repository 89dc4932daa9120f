extension Container {
    private static let sharedFallbackObserver = LockedState<(@Sendable (any Resolver) -> Void)?>(nil)
    private static let sharedAssignmentObserver = LockedState<(@Sendable ((any Resolver)?) -> Void)?>(nil)
    private static let scopeResetObserver = LockedState<(@Sendable (Container, Scope, RegistrationSite) -> Void)?>(nil)

    /// Told each time ``resetScope(_:file:line:)`` is called on a container, with the scope and
    /// where. The test support sets it, to notice app code that resets a container a test
    /// container wraps, which keeps its own instances.
    package static var onScopeReset: (@Sendable (Container, Scope, RegistrationSite) -> Void)? {
        get { scopeResetObserver.withLock { $0 } }
        set { scopeResetObserver.withLock { $0 = newValue } }
    }

    /// Told each time ``shared`` is assigned, with the new value. The test support sets it, to
    /// notice a test that changes what every test in the process shares.
    package static var onSharedAssigned: (@Sendable ((any Resolver)?) -> Void)? {
        get { sharedAssignmentObserver.withLock { $0 } }
        set { sharedAssignmentObserver.withLock { $0 = newValue } }
    }

    /// Told each time ``injectionResolver`` falls back to ``shared`` because the task binds no
    /// ``current`` resolver, with the shared one. The test support sets it, to notice a test
    /// whose code runs where its own container is not seen.
    package static var onSharedFallback: (@Sendable (any Resolver) -> Void)? {
        get { sharedFallbackObserver.withLock { $0 } }
        set { sharedFallbackObserver.withLock { $0 = newValue } }
    }
}
