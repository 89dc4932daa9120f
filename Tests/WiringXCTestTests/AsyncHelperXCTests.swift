import WiringTestHelpers
import WiringXCTest
import XCTest

/// The async helpers under XCTest, failing at the caller's line.
final class AsyncHelperXCTests: FailureCapturingTestCase {
    @MainActor
    func testAnAsyncOverrideAndTheAsyncAssertionsPass() async {
        let test = makeTestContainer(base: makeAsyncApp())
        test.overrideAsync(AsyncStore.self) { _ in InMemoryAsyncStore() }
        let failures = await captureFailures {
            let store = await assertResolvesAsync(AsyncStore.self, to: InMemoryAsyncStore.self, in: test)
            XCTAssertNotNil(store)
            await assertScopeAsync(AsyncStore.self, is: .container, in: test)
            await assertScopeAsync(ScreenModel.self, arguments: "Inbox", is: .graph, in: test)
        }
        XCTAssertEqual(failures.map(\.message), [])
    }

    @MainActor
    func testTheAsyncAssertionsFailAtTheirLine() async {
        let test = makeTestContainer(base: makeAsyncApp())
        let line = #line + 2
        let failures = await captureFailures {
            await assertScopeAsync(AsyncHandler.self, is: .container, in: test)
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.message.hasPrefix("expected AsyncHandler to be shared across resolves (.container)") == true)

        let missingLine = #line + 2
        let missing = await captureFailures {
            _ = await assertResolvesAsync(AsyncHandler.self, name: "missing", in: test)
        }
        XCTAssertEqual(missing.map(\.line), [missingLine])
    }
}
