import Testing
import WiringSwiftTesting
import WiringTestHelpers

// The async helpers: an awaited double for an async registration, and the resolve and scope
// assertions for async and main-actor registrations, passing and failing with their text.

@Suite struct AsyncHelperTests {
    @Test func anAsyncOverrideAnswersAnAsyncRegistration() async throws {
        let test = TestContainer(base: makeAsyncApp())
        test.overrideAsync(AsyncStore.self) { _ in
            await Task.yield()
            return InMemoryAsyncStore()
        }
        let store = await assertResolvesAsync(AsyncStore.self, to: InMemoryAsyncStore.self, in: test)
        #expect(store != nil)
        // It keeps the scope of the registration it replaces.
        await assertScopeAsync(AsyncStore.self, is: .container, in: test)
        #expect(test.trace.render() == "AsyncStore .container new #1 (async) (override \"test\")")
    }

    @Test func assertResolvesAsyncResolvesAsyncAndMainActorRegistrationsFromAnywhere() async {
        let test = TestContainer(base: makeAsyncApp())
        #expect(await assertResolvesAsync(AsyncHandler.self, in: test) != nil)
        let model = await assertResolvesAsync(ScreenModel.self, arguments: "Inbox", in: test)
        #expect(await model?.title == "Inbox")
    }

    @Test func assertResolvesAsyncFailsWithTheWholeError() async {
        let test = TestContainer(base: makeAsyncApp())
        await withKnownIssue {
            await assertResolvesAsync(AsyncHandler.self, name: "missing", in: test)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix("AsyncHandler (name: \"missing\") could not be resolved:\n  error: no registration for AsyncHandler (name: \"missing\")")
                && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test func assertScopeAsyncChecksAsyncAndMainActorRegistrations() async {
        let test = TestContainer(base: makeAsyncApp())
        await assertScopeAsync(AsyncStore.self, is: .container, in: test)
        await assertScopeAsync(AsyncHandler.self, is: .transient, in: test)
        await assertScopeAsync(ScreenModel.self, arguments: "Inbox", is: .graph, in: test)
        // The check resolves in a sandbox: nothing is left in the test container.
        #expect(test.resolutionCount(of: AsyncStore.self) == 0)
    }

    @Test func assertScopeAsyncFailsWithWhatItObserved() async {
        let test = TestContainer(base: makeAsyncApp())
        await withKnownIssue {
            await assertScopeAsync(AsyncHandler.self, is: .container, in: test)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == """
                expected AsyncHandler to be shared across resolves (.container), but two resolves gave different instances
                  observed: it behaves like .transient: a new instance every time
                  resolved from: .transient, registered at App/Async.swift:11
                  fix: register AsyncHandler with `.scope(.container)`, or expect the scope it behaves like
                """
        }
    }

    @MainActor @Test func aMainActorRegistrationsScopeIsCheckedSynchronouslyOnTheMainActor() {
        let test = TestContainer(base: makeAsyncApp())
        assertScope(ScreenModel.self, arguments: "Inbox", is: .graph, in: test)
    }

    /// A helper of one's own passes its caller's location on.
    @Test func theSourceLocationFormsReportAtTheirCaller() async {
        func checkStore(in test: TestContainer, sourceLocation: SourceLocation = #_sourceLocation) async {
            await assertScopeAsync(AsyncStore.self, is: .transient, in: test, sourceLocation: sourceLocation)
            _ = await assertResolvesAsync(AsyncStore.self, name: "nope", in: test, sourceLocation: sourceLocation)
        }
        let test = TestContainer(base: makeAsyncApp())
        let line = #line + 2
        await withKnownIssue {
            await checkStore(in: test)
        } matching: { issue in
            issue.sourceLocation?.line == line
        }
    }
}

/// The README's async helpers example.
@Suite struct AsyncHelpersReadme {
    @Test func theAwaitedFormsAndAnAwaitedDouble() async {
        let test = TestContainer(base: makeAsyncApp())
        test.overrideAsync(AsyncStore.self) { _ in InMemoryAsyncStore() }
        let store = await assertResolvesAsync(AsyncStore.self, to: InMemoryAsyncStore.self, in: test)
        await assertScopeAsync(AsyncStore.self, is: .container, in: test)
        await assertScopeAsync(ScreenModel.self, arguments: "Inbox", is: .graph, in: test)
        #expect(store != nil)
    }
}
