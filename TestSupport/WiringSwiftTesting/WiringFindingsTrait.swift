import Testing
import WiringTestSupport

/// Allows findings in a test, or in every test of a suite: they stay in `test.warnings` and fail
/// no test. Made by ``Testing/Trait/wiringFindings(_:)``.
public struct WiringFindingsTrait: TestTrait, SuiteTrait, TestScoping, FindingPolicyTrait {
    let policy: WiringFindings

    package var findingPolicy: WiringFindings { policy }

    /// Applied to every test of a suite.
    public var isRecursive: Bool { true }

    /// A scope for each test case only.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with the findings allowed, on its task and, through the test's run, for
    /// what is noticed elsewhere on its behalf.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Inside a `.testContainer` trait, its run learns the policy too.
        RunningTests.bound?.findingPolicy = policy
        try await WiringFindings.$bound.withValue(WiringFindings.bound.merging(policy)) {
            try await function()
        }
    }
}

extension Trait where Self == WiringFindingsTrait {
    /// Allows findings in this test, or every test of this suite: by default each finding a test
    /// container makes about the running test fails it (see `WiringFindings`).
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .wiringFindings(.allow("override-of-unregistered")))
    /// func overridesSomethingTheAppDropped() throws {
    ///     let test = try #require(TestContainer.current)
    ///     test.override(LegacyAnalytics.self) { _ in NoopAnalytics() }
    ///     #expect(test.warnings.map(\.identifier) == ["override-of-unregistered"])
    /// }
    /// ```
    public static func wiringFindings(_ policy: WiringFindings) -> Self {
        WiringFindingsTrait(policy: policy)
    }
}
