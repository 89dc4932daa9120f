import Wiring

/// Default factories a ``TestContainer`` uses only where nothing is registered, so a test can
/// build a graph without writing a double for every service it does not care about.
///
/// ```swift
/// test.fakes.register(Analytics.self) { NoopAnalytics() }
/// test.fakes.isStrict = true          // verifyWiring() then reports every key that was faked
/// ```
public final class Fakes: Sendable {
    private let container = Container()
    private let state = LockedState(State())

    private struct State {
        var isStrict = false
        var faked: [ServiceKey] = []
    }

    /// The container the fakes stand in for, where it registers a key live-only.
    private let base: Container

    init(changes: ChangeSignal, base: Container) {
        self.base = base
        container.observeChanges(changes)
    }

    /// Whether relying on a fake is a problem: `verifyWiring()` lists each faked key when set.
    public var isStrict: Bool {
        get { state.withLock { $0.isStrict } }
        set { state.withLock { $0.isStrict = newValue } }
    }

    /// Every key a fake stood in for, in the order first used.
    public var fakedKeys: [ServiceKey] {
        state.withLock { $0.faked }
    }

    /// Registers a default for a type, used only when no layer and no base registration has it.
    ///
    /// `make` need not be `@Sendable`, so it may capture a fake the test keeps. What the test
    /// takes on: a double is used from the test's own tasks; share it across threads only if it
    /// is safe to.
    /// - Parameters:
    ///   - serviceType: The type to fake.
    ///   - name: The registration name it stands in for, if any.
    ///   - make: Makes the fake.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    ///   - isolation: Where the factory runs: the caller's isolation, by default (a `@MainActor`
    ///     test's double runs only on the main actor); leave the default.
    @discardableResult
    public func register<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        make: @escaping () throws -> Service
    ) -> Registration<Service> {
        IsolatedDouble.register(
            serviceType, name: name, file: file, line: line, isolation: isolation, in: container, factory: { _ in try make() }
        ).keepingScope(of: base)
    }

    package var registry: Registry { container.registry }

    /// Every fake registered, in registration order.
    var entries: [RegistrationEntry] {
        container.visibleRegistrations(includingParents: false).map(\.entry)
    }

    package func noteUsed(_ key: ServiceKey) {
        state.withLock { state in
            if !state.faked.contains(key) { state.faked.append(key) }
        }
    }
}
