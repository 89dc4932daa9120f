import Testing
import WiringSwiftTesting
import WiringTestHelpers

// The traits: a fresh test container per test and per argument, with doubles on top.

@Suite struct TestContainerTraitTests {
    @Test(.testContainer { makeAppContainer() }, arguments: 0..<32)
    func eachArgumentSeesOnlyItsOwnOverride(index: Int) async throws {
        let test = try #require(TestContainer.current)
        test.override(Network.self) { _ in FakeNetwork(label: "argument \(index)") }
        // Let the other arguments override theirs in between.
        await Task.yield()
        let checkout = try test.resolve(Checkout.self)
        #expect(checkout.cart.network.label == "argument \(index)")
        #expect(checkout.payments.network.label == "argument \(index)")
        #expect(test.resolutionCount(of: Checkout.self) == 1)
        #expect(test.trace.roots.count == 1)
    }

    @Test(.testContainer { makeAppContainer() })
    func bindsTheContainerForInjectedProperties() throws {
        let test = try #require(TestContainer.current)
        let current = try #require(Container.current as? TestContainer)
        #expect(current === test)
        let screen = CheckoutScreen()
        #expect(screen.checkout.cart.network is LiveNetwork)
        #expect(test.resolutionCount(of: Checkout.self) == 1)
    }

    @Test(.testContainer { makeAppContainer() })
    func childTasksSeeTheSameContainer() async throws {
        let test = try #require(TestContainer.current)
        let fromChild = await Task { TestContainer.current }.value
        #expect(fromChild === test)
    }

    @Test func noContainerWithoutTheTrait() {
        #expect(TestContainer.current == nil)
    }

    @Test(
        .testContainer { makeAppContainer() },
        .fakes { fakes in fakes.register(Analytics.self) { NoopAnalytics() } })
    func fakesAreInstalled() throws {
        let test = try #require(TestContainer.current)
        _ = try test.resolve(Analytics.self)
        #expect(test.fakes.fakedKeys == [ServiceKey(Analytics.self)])
        let failures = expectFailures { assertNoFakesUsed(test) }
        #expect(failures.count == 1)
    }
}

final class CheckoutScreen {
    @Injected var checkout: Checkout
}

/// Doubles on a suite apply to each test; the last override of a key wins.
@Suite(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork(label: "suite") })
struct SuiteLevelTraitTests {
    @Test func seesTheSuiteOverride() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "suite")
        #expect(test.trace.render() == "Network .container new #1 (override \"test\")")
    }

    @Test(.override(Network.self) { _ in FakeNetwork(label: "test") })
    func aTestOverrideGoesOnTop() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "test")
    }

    @Test func eachTestHasItsOwnContainer() throws {
        let test = try #require(TestContainer.current)
        test.override(Cart.self) { _ in Cart(network: FakeNetwork(label: "only here")) }
        #expect(try test.resolve(Cart.self).network.label == "only here")
    }

    @Test func anotherTestDoesNotSeeThatOverride() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Cart.self).network.label == "suite")
    }
}

/// Doubles listed on a suite before the test's own container are applied when it is made.
@Suite(.override(Network.self) { _ in FakeNetwork(label: "outer") })
struct OverrideBeforeContainerTests {
    @Test(.testContainer { makeAppContainer() })
    func theOuterOverrideIsApplied() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "outer")
    }
}

/// Under a container someone bound for several tests, an override is seen by its test only.
@Suite struct SharedContainerTraitTests {
    static let shared = TestContainer(base: makeAppContainer())

    @Test(arguments: 0..<8)
    func overridesStayInTheirTask(index: Int) async throws {
        try await TestContainer.$current.withValue(Self.shared) {
            try await OverrideInTask(index: index).run()
        }
    }
}

/// Runs `.override` as a trait would inside a test bound to a shared container.
struct OverrideInTask {
    let index: Int

    func run() async throws {
        let index = index
        let trait: TestDoubleTrait = .override(Network.self) { _ in FakeNetwork(label: "task \(index)") }
        let test = try #require(TestContainer.current)
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            await Task.yield()
            let network = try test.resolve(Network.self)
            #expect(network.label == "task \(index)")
        }
        #expect(test.layerNames.isEmpty)
    }
}

@Test func anOverrideWithoutAContainerFails() async throws {
    let trait: TestDoubleTrait = .override(Network.self) { _ in FakeNetwork() }
    let line = #line - 1
    let recorded = Locked<[RecordedFailure]>([])
    try await withKnownIssue {
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {}
    } matching: { issue in
        recorded.withLock {
            $0.append(RecordedFailure(
                message: issue.comments.map(\.rawValue).joined(), fileID: issue.sourceLocation?.fileID ?? "",
                line: issue.sourceLocation?.line ?? 0))
        }
        return true
    }
    let failure = try #require(recorded.withLock { $0.first })
    #expect(failure.line == line)
    #expect(failure.fileID == #fileID)
    #expect(failure.message == """
        `.override(Network)` found no test container to apply to
          fix: add `.testContainer { makeAppContainer() }` to the test or its suite
        """)
}

struct SetupFailed: Error {}

/// A base that cannot be built fails the test with its error.
@Test func aThrowingBaseFailsTheTest() async throws {
    let trait: TestContainerTrait = .testContainer { throw SetupFailed() }
    await #expect(throws: SetupFailed.self) {
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {}
    }
}

/// A test's own `.testContainer` inside its suite's builds on the suite's: the suite's doubles
/// stay unless the test replaces them again.
@Suite(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork(label: "suite") })
struct NestedTestContainerTraitTests {
    @Test(.testContainer { makeAppContainer() })
    func keepsTheSuitesOverrides() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "suite")
    }

    @Test(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork(label: "test") })
    func aTestOverrideOfTheSameKeyWins() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "test")
    }

    @Test(.override(Network.self) { _ in FakeNetwork(label: "listed first") }, .testContainer { makeAppContainer() })
    func aTestOverrideListedBeforeItsContainerWinsToo() throws {
        let test = try #require(TestContainer.current)
        #expect(try test.resolve(Network.self).label == "listed first")
    }
}
