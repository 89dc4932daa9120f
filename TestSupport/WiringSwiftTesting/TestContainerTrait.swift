import Testing
import Wiring
import WiringTestSupport

/// Gives each test, and each argument of a parameterized test, a fresh ``TestContainer`` over
/// a fresh base, isolated from tests running in parallel. Made by ``Testing/Trait/testContainer(_:)``.
///
/// While the test runs, the test container is `TestContainer.current`, and the container
/// `@Injected` and `@LazyInjected` resolve from (`Container.current`).
public struct TestContainerTrait: TestTrait, SuiteTrait, TestScoping {
    private let makeBase: @Sendable () throws -> Container

    init(makeBase: @escaping @Sendable () throws -> Container) {
        self.makeBase = makeBase
    }

    /// Applied to every test of a suite, each test case getting its own container.
    public var isRecursive: Bool { true }

    /// A scope for each test case only: a suite as a whole gets no container of its own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with a new test container over `makeBase()`, with the doubles of the
    /// `.override` and `.fakes` traits listed outside this one (on the suite, say) applied.
    ///
    /// The test container is this test case's: wiring coverage counts what it resolves for this
    /// test, and resolving through it once the test case has ended is reported.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        TestIdentification.install()
        let run = TestRun(name: TestIdentification.name(of: test))
        // What the test's `.wiringFindings` traits allow, wherever they are listed: a double
        // applied before an allowance listed after it may already notice a finding.
        run.findingPolicy = TestIdentification.declaredFindingPolicy(of: test).merging(WiringFindings.bound)
        defer { run.end() }
        try await RunningTests.$bound.withValue(run) {
            // Ends on the test's own task, where the findings noticed elsewhere can still fail it.
            defer { run.endScope() }
            let (leaks, outcome) = await runWithContainer(run, performing: function)
            // The test container and what it kept are gone: what it made and is alive is held elsewhere.
            await leaks?.report(endingScopeOf: run)
            try outcome.get()
        }
    }

    /// Runs the test case with its test container, and gives the container up before returning.
    private func runWithContainer(
        _ run: TestRun, performing function: @Sendable () async throws -> Void
    ) async -> (LeakWatch?, Result<Void, any Error>) {
        let container: TestContainer
        do {
            container = TestContainer(base: try makeBase())
        } catch {
            return (nil, .failure(error))
        }
        container.declareMade(for: run, by: "`.testContainer`")
        let owned = OwnedTestContainer(container)
        // Inside a suite's `.testContainer`, a test's builds on it: the suite's doubles first,
        // then the test's own, which win where both replace a key.
        FindingRouter.$reportedElsewhere.withValue(.bySuiteContainer) {
            for doubles in PendingTestDoubles.ownedContainer?.appliedDoubles ?? [] {
                owned.apply(doubles)
            }
        }
        for doubles in PendingTestDoubles.current {
            doubles.apply(to: owned)
        }
        do {
            try await PendingTestDoubles.$current.withValue([]) {
                try await PendingTestDoubles.$ownedContainer.withValue(owned) {
                    try await TestContainer.$current.withValue(container) {
                        try await Container.$current.withValue(container) {
                            try await function()
                        }
                    }
                }
            }
        } catch {
            return (watchForLeaks(in: container), .failure(error))
        }
        return (watchForLeaks(in: container), .success(()))
    }

    /// Starts watching what `container` made, and lets go of what it keeps: whoever holds the
    /// test container a moment longer then holds none of its instances.
    private func watchForLeaks(in container: TestContainer) -> LeakWatch {
        let watch = container.watchForLeaks()
        container.letGoOfKeptInstances()
        return watch
    }
}

extension Trait where Self == TestContainerTrait {
    /// A fresh test container for each test (and each argument) over the container `makeBase`
    /// builds, as `TestContainer.current`, isolated from tests running in parallel.
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork() })
    /// func checkout() throws {
    ///     let test = try #require(TestContainer.current)
    ///     let checkout = try test.resolve(Checkout.self)
    /// }
    /// ```
    ///
    /// On a suite, every test of it gets its own. `@Injected` properties of objects made during
    /// the test resolve from it too.
    /// - Parameter makeBase: Builds the app's container, once for each test case. An error it
    ///   throws fails the test.
    public static func testContainer(_ makeBase: @escaping @Sendable () throws -> Container) -> Self {
        TestContainerTrait(makeBase: makeBase)
    }
}
