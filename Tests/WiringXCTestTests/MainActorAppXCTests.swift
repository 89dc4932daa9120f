import WiringTestHelpers
import WiringXCTest
import XCTest

// The Pantry app (`MainActorApp`, in the shared helpers) under XCTest: resolved root by root on
// the main actor, and verified complete on the main actor and off it.

// Swift's corelibs XCTest (Linux) cannot run a `@MainActor` test method: listing the tests
// casts each to a nonisolated function, which crashes the test process. The main-actor tests are
// nonisolated methods that run their body on the main actor: XCTest runs a synchronous test on
// the main thread, and an async one awaits a `@MainActor` function.
final class MainActorAppXCTests: XCTestCase {
    /// With the launch services in memory, every registration resolves synchronously on the main
    /// actor, root by root: no launch to await.
    func testEveryRootResolvesSynchronouslyOnTheMainActor() throws {
        try MainActor.assumeIsolated {
            let container = MainActorApp.makeContainer(launchServicesInMemory: true)
            XCTAssertEqual(try MainActorApp.resolveEveryRoot(from: container), MainActorApp.roots.count)
        }
    }

    /// A synchronous check on the main actor builds every main-actor factory and every plain one
    /// forwarding to it; only what must be awaited is left to `verifyWiringAsync`.
    func testASynchronousCheckOnTheMainActorLeavesOnlyTheAwaitedRegistrations() {
        MainActor.assumeIsolated {
            let report = TestContainer(base: MainActorApp.makeContainer()).verifyWiring(samples: addMainActorAppSamples)
            XCTAssertEqual(report.problems, [], "\(report)")
            XCTAssertEqual(Set(report.unchecked), MainActorApp.awaitedKeys, "\(report)")
            XCTAssertEqual(report.checked.count, MainActorApp.roots.count - MainActorApp.awaitedKeys.count)
        }
    }

    /// A synchronous check cannot run `registerAsync` factories: with the launch services
    /// replaced by in-memory ones, it can check everything else.
    func testTheWiringIsCompleteOnTheMainActorWithTheLaunchServicesInMemory() {
        MainActor.assumeIsolated {
            let test = TestContainer(base: MainActorApp.makeContainer(launchServicesInMemory: true))
            assertComplete(test.verifyWiring(samples: addMainActorAppSamples))
        }
    }

    func testTheWiringIsCompleteWithAwaitOffTheMainActor() async {
        let test = TestContainer(base: MainActorApp.makeContainer())
        assertComplete(await test.verifyWiringAsync(samples: addMainActorAppSamples))
    }

    func testTheWiringIsCompleteWithAwaitOnTheMainActor() async {
        await verifyWithAwaitOnTheMainActor()
    }
}

/// `verifyWiringAsync`, awaited on the main actor.
@MainActor
private func verifyWithAwaitOnTheMainActor(file: StaticString = #filePath, line: UInt = #line) async {
    let test = TestContainer(base: MainActorApp.makeContainer())
    assertComplete(await test.verifyWiringAsync(samples: addMainActorAppSamples), file: file, line: line)
}

/// Asserts a report of the whole app is complete: every root checked, no problem, nothing unchecked.
private func assertComplete(_ report: WiringReport, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(report.isComplete, "\(report)", file: file, line: line)
    XCTAssertTrue(report.problems.isEmpty, "\(report)", file: file, line: line)
    XCTAssertTrue(report.unchecked.isEmpty, "\(report)", file: file, line: line)
    let notChecked = MainActorApp.roots.map(\.key).filter { !report.checked.contains($0) }
    XCTAssertTrue(notChecked.isEmpty, "not checked: \(notChecked)", file: file, line: line)
}

/// Adds the app's sample arguments (those of `MainActorApp.roots`) to a verification's samples.
private func addMainActorAppSamples(_ samples: inout VerificationSamples) {
    let collector = SampleCollector(samples)
    MainActorApp.addSamples(to: collector)
    samples = collector.samples
}

/// Hands the fixture's samples to `VerificationSamples`, which the fixture's target cannot see.
private final class SampleCollector: MainActorApp.SampleSink {
    var samples: VerificationSamples

    init(_ samples: VerificationSamples) {
        self.samples = samples
    }

    func add<Service, each Argument>(_ serviceType: Service.Type, name: String?, arguments: repeat each Argument) {
        samples.add(serviceType, name: name, arguments: repeat each arguments)
    }
}
