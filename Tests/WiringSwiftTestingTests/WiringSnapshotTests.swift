import Foundation
import Testing
import WiringAssertions
import WiringSwiftTesting
import WiringTestHelpers

// Wiring snapshots: the manifest compared with a committed file, recorded when missing, diffed
// when different, exactly as trace snapshots are.

/// The manifest of the app's wiring, as `assertWiringSnapshot` keeps it.
private let appManifest = """
    Wiring manifest: 4 registrations, 0 problems, 0 unchecked

    Cart [.graph] at WiringTestHelpers/AppGraph.swift
      needs Network
    Checkout [.graph] at WiringTestHelpers/AppGraph.swift
      needs Cart
      needs Payments
    Network [.container] at WiringTestHelpers/AppGraph.swift
    Payments [.graph] at WiringTestHelpers/AppGraph.swift
      needs Network
    """

// The README's example, as it is there.
@Test func appWiring() {
    let test = TestContainer(base: makeAppContainer())
    let manifest = test.wiringManifest()                 // every registration, scope, dependencies, problems
    #expect(manifest.report.problems.isEmpty, "\(manifest)")  // its description is manifest.render()
    assertWiringSnapshot(test, named: "app")             // __Snapshots__/<TestFile>/appWiring.app.wiring.txt
}

@Suite struct WiringSnapshotTests {
    @Test func theAsyncFormRecordsTheManifestOfAsyncFactoriesThenPasses() async throws {
        let directory = try TemporaryDirectory()
        let container = makeAppContainer()
        container.registerAsync(Logger.self) { _ in ConsoleLogger() }
        let test = TestContainer(base: container)
        let failures = await expectFailures {
            await assertWiringSnapshotAsync(test, named: "app", snapshotDirectory: directory.path, record: true)
        }
        let file = directory.path + "/theAsyncFormRecordsTheManifestOfAsyncFactoriesThenPasses.app.wiring.txt"
        #expect(failures.first?.message.hasPrefix("recorded the wiring snapshot, as `record: true`") == true)
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        #expect(recorded.contains("Logger [.graph] at WiringSwiftTestingTests/WiringSnapshotTests.swift\n"))
        #expect(!recorded.contains("(unchecked)"))
        // Run again, it matches.
        await assertWiringSnapshotAsync(test, named: "app", snapshotDirectory: directory.path)
    }

    @Test func theSnapshotIsTheManifest() {
        #expect(TestContainer(base: makeAppContainer()).wiringManifest().render() == appManifest)
    }

    @Test func aMissingSnapshotIsRecordedAndFailsThenPasses() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        let line = #line + 1
        let failures = expectFailures { check(.wiring(test), in: directory) }
        let file = directory.path + "/aMissingSnapshotIsRecordedAndFailsThenPasses.app.wiring.txt"
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            no wiring snapshot was found, so this one was recorded: \(file)
              fix: check it, commit it, and run the test again to compare against it
            """)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == appManifest + "\n")
        // Run again, it matches.
        check(.wiring(test), in: directory)
    }

    @Test func aChangedWiringFailsWithALineDiff() throws {
        let directory = try TemporaryDirectory()
        check(.wiring(TestContainer(base: makeAppContainer())), in: directory, record: true, expectingFailure: true)
        let changed = makeAppContainer()
        changed.register(Checkout.self) { r in try Checkout(cart: r.resolve(), payments: Payments(network: r.resolve())) }
        let test = TestContainer(base: changed)
        test.override(Network.self) { _ in FakeNetwork() }
        let line = #line + 1
        let failures = expectFailures { check(.wiring(test), in: directory) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            the manifest does not match the snapshot \(directory.path)/aChangedWiringFailsWithALineDiff.app.wiring.txt
            (- snapshot, + manifest)
            @@ -2,9 +2,9 @@
             
             Cart [.graph] at WiringTestHelpers/AppGraph.swift
               needs Network
            -Checkout [.graph] at WiringTestHelpers/AppGraph.swift
            +Checkout [.graph] at WiringSwiftTestingTests/WiringSnapshotTests.swift
               needs Cart
            -  needs Payments
            -Network [.container] at WiringTestHelpers/AppGraph.swift
            +  needs Network
            +Network [.container] at WiringSwiftTestingTests/WiringSnapshotTests.swift (override "test")
             Payments [.graph] at WiringTestHelpers/AppGraph.swift
               needs Network
              fix: if the new manifest is right, run again with WIRING_RECORD_SNAPSHOTS=1 or `record: true` to record it
            """)
    }

    /// The record modes are the trace snapshot's (TraceSnapshotTests tests them at length), in
    /// words that name the wiring snapshot.
    @Test func theRecordModesOfTraceSnapshots() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        let file = directory.path + "/theRecordModesOfTraceSnapshots.app.wiring.txt"
        let onCI = expectFailures { check(.wiring(test), in: directory, environment: ["CI": "true"]) }
        #expect(onCI.first?.message == """
            no wiring snapshot at \(file), and none was recorded as CI is set
              fix: run the test locally to record it, and commit it
            """)
        #expect(!FileManager.default.fileExists(atPath: file))
        let byArgument = expectFailures { check(.wiring(test), in: directory, record: true) }
        #expect(byArgument.first?.message == """
            recorded the wiring snapshot, as `record: true`: \(file)
              fix: turn recording off and run the test again to compare against it
            """)
        try "an old manifest\n".write(toFile: file, atomically: true, encoding: .utf8)
        let byEnvironment = expectFailures { check(.wiring(test), in: directory, environment: ["WIRING_RECORD_SNAPSHOTS": "1"]) }
        #expect(byEnvironment.first?.message.hasPrefix("recorded the wiring snapshot, as WIRING_RECORD_SNAPSHOTS is set") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == appManifest + "\n")
    }

    @Test func aSnapshotDirectoryOfYourChoice() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        let line = #line + 1
        let failures = expectFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path, record: true) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.fileID == #fileID)
        assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/aSnapshotDirectoryOfYourChoice.app.wiring.txt"))
    }

    @Test func anAppContainerIsSnapshottedThroughATestContainerItLeavesUntouched() throws {
        let directory = try TemporaryDirectory()
        let container = makeAppContainer()
        let failures = expectFailures {
            assertWiringSnapshot(container, named: "app", snapshotDirectory: directory.path, record: true)
        }
        #expect(failures.count == 1)
        let file = directory.path + "/anAppContainerIsSnapshottedThroughATestContainerItLeavesUntouched.app.wiring.txt"
        #expect(try String(contentsOfFile: file, encoding: .utf8)
            == TestContainer(base: container).wiringManifest().render() + "\n")
        assertWiringSnapshot(container, named: "app", snapshotDirectory: directory.path)
        let location = SourceLocation(fileID: "App/WiringTests.swift", filePath: "/App/WiringTests.swift", line: 3, column: 1)
        assertWiringSnapshot(container, named: "app", snapshotDirectory: directory.path, sourceLocation: location)
    }

    @Test func aTraceSnapshotOfTheSameNameIsAnotherFile() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        // Recorded with `record: true`: a missing snapshot is not recorded when `CI` is set.
        _ = expectFailures { assertTraceSnapshot(test.trace, named: "app", snapshotDirectory: directory.path, record: true) }
        _ = expectFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path, record: true) }
        assertTraceSnapshot(test.trace, named: "app", snapshotDirectory: directory.path)
        assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
            "aTraceSnapshotOfTheSameNameIsAnotherFile.app.txt", "aTraceSnapshotOfTheSameNameIsAnotherFile.app.wiring.txt",
        ])
    }

    @Test func samplesBuildWhatTakesRuntimeArguments() throws {
        let directory = try TemporaryDirectory()
        let container = makeAppContainer()
        container.register(Receipt.self) { (r, total: Int) in try Receipt(total: total, network: r.resolve()) }
        let test = TestContainer(base: container)
        _ = expectFailures {
            assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path, record: true) { samples in
                samples.add(Receipt.self, arguments: 42)
            }
        }
        let file = directory.path + "/samplesBuildWhatTakesRuntimeArguments.app.wiring.txt"
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("""
            Receipt (arguments: Int) [.transient] at WiringSwiftTestingTests/WiringSnapshotTests.swift
              needs Network
            """))
    }
}

private final class Receipt: Sendable {
    init(total: Int, network: any Network) {}
}

/// Two cases of a parameterized test checking one snapshot name would write one file twice: the
/// second is asked for a name of its own. Serialized, so that the second case is the one failing.
@Suite(.serialized) struct ParameterizedSnapshotNamingTests {
    private static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("WiringParameterized-\(UUID())").path

    @Test(arguments: [1, 2])
    func twoCasesSharingASnapshotNameAreAskedForTheirOwn(index: Int) throws {
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        if index == 1 {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            let file = URL(fileURLWithPath: "\(Self.directory)/twoCasesSharingASnapshotNameAreAskedForTheirOwn-index.checkout.txt")
            try Data((test.trace.render() + "\n").utf8).write(to: file)
            assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: Self.directory)
            return
        }
        withKnownIssue {
            assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: Self.directory)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("was checked in this run by another case of this parameterized test")
                && text.contains("fix: give each its own name")
        }
        // A name of its own passes.
        let own = URL(fileURLWithPath: "\(Self.directory)/twoCasesSharingASnapshotNameAreAskedForTheirOwn-index.checkout-2.txt")
        try Data((test.trace.render() + "\n").utf8).write(to: own)
        assertTraceSnapshot(test.trace, named: "checkout-\(index)", snapshotDirectory: Self.directory)
        try? FileManager.default.removeItem(atPath: Self.directory)
    }
}
