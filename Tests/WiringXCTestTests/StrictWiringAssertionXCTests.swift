import WiringTestHelpers
import WiringXCTest
import XCTest

// assertWiringComplete fails under XCTest too while a registration is left unchecked.

private final class SXGreeting {
    init(name: String = "") {}
}

final class StrictWiringAssertionXCTests: FailureCapturingTestCase {
    func testFailsOnAnUncheckedRegistrationShowingTheSample() {
        let container = Container()
        container.register(SXGreeting.self, name: "formal") { (_, name: String) in SXGreeting(name: name) }
        let line = #line + 1
        let failures = captureFailures { assertWiringComplete(container) }

        XCTAssertEqual(failures.map(\.line), [line])
        let report = TestContainer(base: container).verifyWiring()
        XCTAssertFalse(report.isComplete)
        XCTAssertEqual(
            failures.first?.message,
            "the wiring is incomplete:\n" + indented(report.description)
                + "\nfix: give sample arguments to the assertion, `assertWiringComplete(…) { samples in samples.add(SXGreeting.self, name: \"formal\", arguments: <String>) }`")
    }

    func testPassesWithTheSample() {
        let container = Container()
        container.register(SXGreeting.self, name: "formal") { (_, name: String) in SXGreeting(name: name) }
        assertWiringComplete(container) { samples in samples.add(SXGreeting.self, name: "formal", arguments: "Ada") }
    }

    func testTheAsyncAssertionBuildsWhatMustBeAwaited() async {
        let container = Container()
        container.registerAsync(SXGreeting.self) { _ in SXGreeting() }
        await assertWiringCompleteAsync(TestContainer(base: container))
    }
}
