import Foundation
import Testing
import WiringAssertions
import WiringSwiftTesting
import WiringTestHelpers

// Trace snapshots: compared with a committed file, recorded when missing, diffed when different.

@Suite struct TraceSnapshotTests {
    @Test func checkout() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        _ = try test.resolve(Checkout.self)
        assertTraceSnapshot(test.trace, named: "checkout")    // __Snapshots__/TraceSnapshotTests/checkout.checkout.txt
    }

    @Test func aMissingSnapshotIsRecordedAndFails() throws {
        let directory = try TemporaryDirectory()
        let trace = try checkoutTrace()
        let line = #line + 1
        let failures = expectFailures { check(.trace(trace), in: directory, environment: [:]) }
        let file = directory.path + "/aMissingSnapshotIsRecordedAndFails.checkout.txt"
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            no trace snapshot was found, so this one was recorded: \(file)
              fix: check it, commit it, and run the test again to compare against it
            """)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == trace.render() + "\n")
        // Run again, it matches.
        check(.trace(trace), in: directory, environment: [:])
    }

    @Test func aMissingSnapshotIsNotRecordedOnCI() throws {
        let directory = try TemporaryDirectory()
        let failures = expectFailures { check(.trace(try! checkoutTrace()), in: directory, environment: ["CI": "true"]) }
        let file = directory.path + "/aMissingSnapshotIsNotRecordedOnCI.checkout.txt"
        #expect(failures.first?.message == """
            no trace snapshot at \(file), and none was recorded as CI is set
              fix: run the test locally to record it, and commit it
            """)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func aDifferentTraceFailsWithALineDiff() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        check(.trace(test.trace), in: directory, record: true, expectingFailure: true)
        let changed = TestContainer(base: makeAppContainer())
        changed.override(Network.self) { _ in FakeNetwork() }
        _ = try changed.resolve(Checkout.self)
        let line = #line + 1
        let failures = expectFailures { check(.trace(changed.trace), in: directory, environment: [:]) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            the trace does not match the snapshot \(directory.path)/aDifferentTraceFailsWithALineDiff.checkout.txt
            (- snapshot, + trace)
            @@ -1,5 +1,5 @@
             Checkout .graph new #4
             ├── Cart .graph new #2
            -│   └── Network .container new #1
            +│   └── Network .container new #1 (override "test")
             └── Payments .graph new #3
            -    └── Network .container cached #1
            +    └── Network .container cached #1 (override "test")
              fix: if the new trace is right, run again with WIRING_RECORD_SNAPSHOTS=1 or `record: true` to record it
            """)
    }

    @Test func recordingWritesAgainAndFails() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/recordingWritesAgainAndFails.checkout.txt"
        try "an old trace\n".write(toFile: file, atomically: true, encoding: .utf8)
        let trace = try checkoutTrace()
        let byArgument = expectFailures { check(.trace(trace), in: directory, record: true) }
        #expect(byArgument.first?.message == """
            recorded the trace snapshot, as `record: true`: \(file)
              fix: turn recording off and run the test again to compare against it
            """)
        try "an old trace\n".write(toFile: file, atomically: true, encoding: .utf8)
        let byEnvironment = expectFailures {
            check(.trace(trace), in: directory, environment: ["WIRING_RECORD_SNAPSHOTS": "1", "CI": "true"])
        }
        #expect(byEnvironment.first?.message.hasPrefix("recorded the trace snapshot, as WIRING_RECORD_SNAPSHOTS is set") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == trace.render() + "\n")
        // Recording leaves no temporary file beside the snapshot.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [(file as NSString).lastPathComponent])
    }

    @Test func aSnapshotDirectoryOfYourChoice() throws {
        let directory = try TemporaryDirectory()
        let trace = try checkoutTrace()
        let line = #line + 1
        let failures = expectFailures { assertTraceSnapshot(trace, named: "checkout", snapshotDirectory: directory.path, record: true) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.fileID == #fileID)
        assertTraceSnapshot(trace, named: "checkout", snapshotDirectory: directory.path)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/aSnapshotDirectoryOfYourChoice.checkout.txt"))
    }
}

private func checkoutTrace() throws -> ResolutionTrace {
    let test = TestContainer(base: makeAppContainer())
    _ = try test.resolve(Checkout.self)
    return test.trace
}

@Suite struct SnapshotNameTests {
    @Test func namesAreSafeInFileNames() {
        let snapshot = { (testName: String) in
            TextSnapshot(name: "a b/c", testName: testName, testFilePath: "/x/Tests/T/CheckoutTests.swift", directory: nil)
                .url.path
        }
        #expect(snapshot("checkout()") == "/x/Tests/T/__Snapshots__/CheckoutTests/checkout.a-b-c.txt")
        #expect(snapshot("sees(index:)") == "/x/Tests/T/__Snapshots__/CheckoutTests/sees-index.a-b-c.txt")
        #expect(snapshot("testCheckout") == "/x/Tests/T/__Snapshots__/CheckoutTests/testCheckout.a-b-c.txt")
    }
}

/// A trace recorded on a test container other tests used before renders as one recorded alone:
/// its instances are numbered from #1, whatever ran before and whatever `clearTrace()` cleared.
@Suite struct TraceNumberingTests {
    private final class Engine {}
    private final class Car {
        let engine: Engine
        init(engine: Engine) { self.engine = engine }
    }

    private func makeGarage() -> Container {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.scope(.transient)
        container.register(Car.self) { r in Car(engine: try r.resolve()) }
        return container
    }

    @Test func aTraceAfterOtherTestsRendersAsOneRecordedAlone() throws {
        let alone = TestContainer(base: makeGarage())
        _ = try alone.resolve(Car.self)

        let shared = TestContainer(base: makeGarage())
        for _ in 0..<3 { _ = try shared.resolve(Car.self) }     // the examples that ran before
        shared.clearTrace()
        _ = try shared.resolve(Car.self)

        #expect(shared.trace.render() == alone.trace.render())
        #expect(alone.trace.render() == """
            Car .graph new #2
            └── Engine .transient new #1
            """)
    }
}
