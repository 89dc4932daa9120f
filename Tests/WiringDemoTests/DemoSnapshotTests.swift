import Testing
import WiringDemoKit

/// What `swift run wiring-demo` prints, byte for byte, against the files in `Snapshots/`.
@Suite struct DemoSnapshots {
    @Test func overview() {
        let result = Demo.run(arguments: [])
        #expect(result.exitCode == 0)
        Snapshot.expect(result.standardOutput, matches: "overview.txt")
    }

    @Test func mermaid() {
        let result = Demo.run(arguments: ["--mermaid"])
        #expect(result.exitCode == 0)
        Snapshot.expect(result.standardOutput, matches: "shop.mmd")
    }

    @Test func dot() {
        let result = Demo.run(arguments: ["--dot"])
        #expect(result.exitCode == 0)
        Snapshot.expect(result.standardOutput, matches: "shop.dot")
    }

    @Test func manifest() {
        let result = Demo.run(arguments: ["--manifest"])
        #expect(result.exitCode == 0)
        Snapshot.expect(result.standardOutput, matches: "shop.manifest.txt")
    }

    @Test func brokenManifest() {
        let result = Demo.run(arguments: ["--broken", "--manifest"])
        #expect(result.exitCode == 0)
        Snapshot.expect(result.standardOutput, matches: "broken.manifest.txt")
    }

    @Test func brokenShowsBothErrorsAndTheReport() {
        let result = Demo.run(arguments: ["--broken"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Wiring: 9 registrations checked, 2 problems, 0 unchecked"))
        Snapshot.expect(result.standardOutput, matches: "broken.txt")
    }

    @Test func everyRunPrintsTheSame() {
        for arguments in [[], ["--broken"], ["--dot"], ["--manifest"]] {
            #expect(Demo.run(arguments: arguments) == Demo.run(arguments: arguments))
        }
    }
}
