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

@Suite struct WiringSnapshotTests {
    @Test func app() {
        let test = TestContainer(base: makeAppContainer())
        assertWiringSnapshot(test, named: "app")             // __Snapshots__/WiringSnapshotTests/app.app.wiring.txt
    }

    @Test func theSnapshotIsTheManifest() {
        #expect(TestContainer(base: makeAppContainer()).wiringManifest().render() == appManifest)
    }

    @Test func aMissingSnapshotIsRecordedAndFails() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        let line = #line + 1
        let failures = expectFailures { check(test, in: directory, environment: [:]) }
        let file = directory.path + "/aMissingSnapshotIsRecordedAndFails.app.wiring.txt"
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            no wiring snapshot was found, so this one was recorded: \(file)
              fix: check it, commit it, and run the test again to compare against it
            """)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == appManifest + "\n")
        // Run again, it matches.
        check(test, in: directory, environment: [:])
    }

    @Test func aMissingSnapshotIsNotRecordedOnCI() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        let failures = expectFailures { check(test, in: directory, environment: ["CI": "true"]) }
        let file = directory.path + "/aMissingSnapshotIsNotRecordedOnCI.app.wiring.txt"
        #expect(failures.first?.message == """
            no wiring snapshot at \(file), and none was recorded as CI is set
              fix: run the test locally to record it, and commit it
            """)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func aChangedWiringFailsWithALineDiff() throws {
        let directory = try TemporaryDirectory()
        check(TestContainer(base: makeAppContainer()), in: directory, record: true, expectingFailure: true)
        let changed = makeAppContainer()
        changed.register(Checkout.self) { r in try Checkout(cart: r.resolve(), payments: Payments(network: r.resolve())) }
        let test = TestContainer(base: changed)
        test.override(Network.self) { _ in FakeNetwork() }
        let line = #line + 1
        let failures = expectFailures { check(test, in: directory, environment: [:]) }
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

    @Test func recordingWritesAgainAndFails() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/recordingWritesAgainAndFails.app.wiring.txt"
        try "an old manifest\n".write(toFile: file, atomically: true, encoding: .utf8)
        let test = TestContainer(base: makeAppContainer())
        let byArgument = expectFailures { check(test, in: directory, record: true) }
        #expect(byArgument.first?.message == """
            recorded the wiring snapshot, as `record: true`: \(file)
              fix: turn recording off and run the test again to compare against it
            """)
        try "an old manifest\n".write(toFile: file, atomically: true, encoding: .utf8)
        let byEnvironment = expectFailures {
            check(test, in: directory, environment: ["WIRING_RECORD_SNAPSHOTS": "1", "CI": "true"])
        }
        #expect(byEnvironment.first?.message.hasPrefix("recorded the wiring snapshot, as WIRING_RECORD_SNAPSHOTS is set") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == appManifest + "\n")
        // Recording leaves no temporary file beside the snapshot.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [(file as NSString).lastPathComponent])
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

    @Test func aTraceSnapshotOfTheSameNameIsAnotherFile() throws {
        let directory = try TemporaryDirectory()
        let test = TestContainer(base: makeAppContainer())
        _ = try test.resolve(Checkout.self)
        _ = expectFailures { assertTraceSnapshot(test.trace, named: "app", snapshotDirectory: directory.path) }
        _ = expectFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path) }
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
            assertWiringSnapshot(test, named: "app", snapshotDirectory: directory.path) { samples in
                samples.add(Receipt.self, arguments: 42)
            }
        }
        let file = directory.path + "/samplesBuildWhatTakesRuntimeArguments.app.wiring.txt"
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("""
            Receipt (arguments: Int) [.transient] at WiringSwiftTestingTests/WiringSnapshotTests.swift
              needs Network
            """))
    }

    /// `assertWiringSnapshot` with the environment given, as the test calling it.
    private func check(
        _ test: TestContainer, in directory: TemporaryDirectory, record: Bool = false,
        environment: [String: String] = [:], expectingFailure: Bool = false,
        testName: String = #function, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let check = {
            checkWiringSnapshot(
                test, named: "app", snapshotDirectory: directory.path, record: record,
                at: CallSite(sourceLocation, function: testName), environment: environment)
        }
        if expectingFailure { _ = expectFailures(check) } else { check() }
    }
}

private final class Receipt: Sendable {
    init(total: Int, network: any Network) {}
}
