import Testing
import WiringAssertions
import WiringSwiftTesting
import WiringTestHelpers

// The isolation sentinel under Swift Testing: a test whose code escapes its container, a layer
// another test left pushed, a test container resolved from after its test ended. Each fails the
// test concerned, with the exact message, once; in parallel, each test case is told its own.
//
// `Container.shared` is the process's, which other suites set: the fallback is simulated here by
// calling the hook `Container.injectionResolver` calls (the real path runs in child processes,
// see IsolationRunTests).

/// The name the test support counts the running test under.
private func runningTestName() -> String {
    Test.current.map(TestIdentification.name(of:)) ?? "no test"
}

/// What the sentinel says when `Container.shared` answers in `test`, which has its own container.
private func sharedFallbackMessage(in test: String) -> String {
    """
    shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver in \(test), \
    which has a test container of its own: the code that resolved does not see it (it runs outside \
    Container.withCurrent, in a Task.detached or in a callback on another queue), so it used the app's real dependencies
      fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand that code \
    the resolver it should use
    """
}

/// What the sentinel says when `test` resolves through a layer `pusher` left pushed.
private func leakedLayerMessage(_ layer: String, pushedDuring pusher: String, resolvingIn test: String) -> String {
    """
    leaked-layer: layer "\(layer)", pushed on a shared TestContainer during \(pusher), is still pushed while \(test) \
    resolves through it, so \(test) gets that test's overrides and the instances made in the layer
      fix: pop the layer in the test that pushes it (`defer { test.popLayer() }`; in XCTest, `pushLayer(_:on:)` pops \
    it at teardown), or use `test.withOverrides({ layer in … }) { … }`, whose layer only the test's own task sees
    """
}

/// What the sentinel says when a container made for `owner` is resolved from after it ended.
private func endedContainerMessage(madeFor owner: String, by maker: String, _ when: String) -> String {
    """
    ended-test-container: the test container \(maker) made for \(owner) was resolved from after \(owner) ended, \(when)
      fix: finish the test's work before it ends (await or cancel its tasks), and give each test a container of its own
    """
}

/// Runs a `.testContainer` trait's scope, as Swift Testing would for a test case, and returns
/// the test container it made, once that test case has ended.
private func containerOfAnEndedTestCase() async throws -> TestContainer {
    let trait: TestContainerTrait = .testContainer { makeAppContainer() }
    let made = Locked<TestContainer?>(nil)
    try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
        made.withLock { $0 = TestContainer.current }
    }
    return try #require(made.withLock { $0 })
}

/// A test container of every test, with a layer another test pushed and left there.
private let sharedWithALeftLayer: TestContainer = {
    let shared = TestContainer(base: makeAppContainer())
    RunningTests.$bound.withValue(TestRun(name: "AppTests.OfflineTests/offline()")) {
        _ = shared.pushLayer("offline")
    }
    return shared
}()

@Suite("Isolation sentinel")
struct IsolationSentinelTests {
    @Test(.testContainer { makeAppContainer() })
    func aFallbackToTheSharedContainerFailsATestThatHasItsOwn() throws {
        let failures = expectFailures { Container.onSharedFallback?(makeAppContainer()) }

        #expect(failures.map(\.message) == [sharedFallbackMessage(in: runningTestName())])
        #expect(failures.first?.fileID == #fileID)
        // Told once a test.
        Container.onSharedFallback?(makeAppContainer())
    }

    @Test func aLayerAnotherTestLeftPushedFailsTheTestResolvingThroughIt() throws {
        TestIdentification.install()
        let shared = TestContainer(base: makeAppContainer())
        RunningTests.$bound.withValue(TestRun(name: "AppTests.OfflineTests/offline()")) {
            shared.pushLayer("offline")
            shared.override(Network.self) { _ in FakeNetwork(label: "offline") }
        }

        let failures = expectFailures { _ = try? shared.resolve(Cart.self) }

        #expect(failures.map(\.message) == [
            leakedLayerMessage("offline", pushedDuring: "AppTests.OfflineTests/offline()", resolvingIn: runningTestName())
        ])
        // Told once a test; popped, the layer is no finding.
        _ = try shared.resolve(Cart.self)
        shared.popLayer()
        _ = try RunningTests.$bound.withValue(TestRun(name: "AppTests.OnlineTests/online()")) {
            try shared.resolve(Cart.self)
        }
    }

    @Test(
        .testContainer { makeAppContainer() }, .timeLimit(.minutes(4)), arguments: 0..<16)
    func testCasesRunningInParallelAreEachToldOfTheLeftLayer(index: Int) async throws {
        await Task.yield()
        let failures = expectFailures { _ = try? sharedWithALeftLayer.resolve(Checkout.self) }

        #expect(failures.map(\.message) == [
            leakedLayerMessage("offline", pushedDuring: "AppTests.OfflineTests/offline()", resolvingIn: runningTestName())
        ])
        // The test case's own container is no finding.
        _ = try #require(TestContainer.current).resolve(Checkout.self)
    }

    @Test func aTestContainerResolvedFromAfterItsTestEndedFailsTheTestResolving() async throws {
        let leaked = try await containerOfAnEndedTestCase()
        let later = "AppTests.LaterTests/later()"

        let failures = expectFailures {
            RunningTests.$bound.withValue(TestRun(name: later)) { _ = try? leaked.resolve(Cart.self) }
        }

        #expect(failures.map(\.message) == [
            endedContainerMessage(madeFor: runningTestName(), by: "`.testContainer`", "during \(later)")
        ])
    }

    @Test func workOfTheTestItselfStillRunningAfterItEnded() async throws {
        let leaked = try await containerOfAnEndedTestCase()

        // Resolved by the same test, after its test case ended.
        let failures = expectFailures { _ = try? leaked.resolve(Cart.self) }

        #expect(failures.map(\.message) == [
            endedContainerMessage(
                madeFor: runningTestName(), by: "`.testContainer`",
                "by code still running after it (an unawaited task, a callback, a stored reference)")
        ])
    }

    @Test(.timeLimit(.minutes(4)), arguments: 0..<16)
    func testCasesInParallelAreEachToldOfTheirEndedContainer(index: Int) async throws {
        let leaked = try await containerOfAnEndedTestCase()
        let later = "AppTests.LaterTests/later\(index)()"

        let failures = expectFailures {
            RunningTests.$bound.withValue(TestRun(name: later)) { _ = try? leaked.resolve(Checkout.self) }
        }

        #expect(failures.map(\.message) == [
            endedContainerMessage(madeFor: runningTestName(), by: "`.testContainer`", "during \(later)")
        ])
    }
}

/// The warnings kept for the end of the run that name `name`, taken. The warnings are the
/// process's: every test that takes them is in the serialized suite below, so that none takes
/// another's, and each looks only at those naming it, as suites running beside it may keep
/// warnings of their own.
private func takeWarnings(naming name: String) -> [String] {
    RunEnd.takeWarnings().filter { $0.contains(name) }
}

/// What no test can be failed for waits for the end of the run, and what is no finding at all
/// is neither a failure nor a warning kept for then: these take the kept warnings to check them.
@Suite("Isolation sentinel, outside any test, and what is no finding", .serialized)
struct IsolationSentinelOutsideTestsTests {
    @Test(.testContainer { makeAppContainer() }, .timeLimit(.minutes(4)))
    func aFallbackInADetachedTaskIsAWarningForTheEndOfTheRun() async throws {
        let name = runningTestName()

        await Task.detached { Container.onSharedFallback?(makeAppContainer()) }.value

        // Tests running in parallel with containers of their own may be named too.
        let warnings = takeWarnings(naming: name)
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("""
            shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver in code \
            no test is known for (a Task.detached, a callback on another queue) while
            """))
    }

    @Test(.timeLimit(.minutes(4)))
    func aTestContainerResolvedFromOutsideAnyTestAfterItsTestEnded() async throws {
        let leaked = try await containerOfAnEndedTestCase()
        let name = runningTestName()

        _ = try await Task.detached { try leaked.resolve(Cart.self) }.value

        #expect(takeWarnings(naming: name) == [
            endedContainerMessage(
                madeFor: name, by: "`.testContainer`",
                "by code still running after it (an unawaited task, a callback, a stored reference)")
        ])
    }

    @Test func aFallbackInATestWithoutAContainerOfItsOwnIsFine() throws {
        TestIdentification.install()
        // Installs the hook, in this test…
        _ = TestContainer(base: makeAppContainer())
        // …and falls back in another, which has no test container: no failure, and no warning.
        let legacy = "AppTests.LegacyTests/usesTheSharedContainer()"
        RunningTests.$bound.withValue(TestRun(name: legacy)) {
            Container.onSharedFallback?(makeAppContainer())
        }
        #expect(takeWarnings(naming: legacy) == [])
    }

    @Test(.testContainer { makeAppContainer() })
    func aFallbackToATestContainerMadeShared() throws {
        // A test that made a test container the shared one says so: no failure, and no warning.
        Container.onSharedFallback?(try #require(TestContainer.current))
        #expect(takeWarnings(naming: runningTestName()) == [])
    }

    @Test func aLayerTheTestItselfPushedIsFine() throws {
        TestIdentification.install()
        let shared = TestContainer(base: makeAppContainer())
        shared.pushLayer("mine")
        _ = try shared.resolve(Cart.self)
        shared.popLayer()
        // No failure, and no warning.
        #expect(takeWarnings(naming: runningTestName()) == [])
    }
}
