import Foundation

/// The built tests of a package and how to run a selection of them: on Linux the test binary
/// itself (`swift test --skip-build` calls would wait on one build lock, one at a time); on
/// macOS, where a test bundle needs a runner, `swift test --skip-build`.
package struct TestBinary: Sendable {
    /// The test binary, on Linux.
    package let path: String?
    /// The package, for `swift test` where there is no binary to run directly.
    package let packagePath: String
    package let scratchPath: String?

    package init(path: String?, packagePath: String, scratchPath: String? = nil) {
        self.path = path
        self.packagePath = packagePath
        self.scratchPath = scratchPath
    }

    /// A program to run and its arguments.
    package struct Invocation: Equatable, Sendable {
        package let executable: String
        package let arguments: [String]
    }

    private var swiftTest: [String] {
        ["swift", "test", "--skip-build", "--package-path", packagePath] + (scratchPath.map { ["--scratch-path", $0] } ?? [])
    }

    /// What lists XCTest's tests, and Swift Testing's.
    package var listings: (xctest: Invocation, swiftTesting: Invocation?) {
        guard let path else { return (Invocation(executable: "/usr/bin/env", arguments: swiftTest + ["list"]), nil) }
        return (
            Invocation(executable: path, arguments: ["--list-tests"]),
            Invocation(executable: path, arguments: ["--testing-library", "swift-testing", "--list-tests"])
        )
    }

    /// The runs that run `selection`: XCTest's tests, then Swift Testing's.
    package func invocations(for selection: TestSelection) -> [Invocation] {
        guard let path else {
            return [Invocation(executable: "/usr/bin/env", arguments: swiftTest + ["--filter", selection.swiftTestFilter])]
        }
        var runs: [Invocation] = []
        if !selection.xctest.isEmpty {
            // XCTest takes one argument, its selectors separated by commas.
            runs.append(Invocation(executable: path, arguments: [selection.xctest.joined(separator: ",")]))
        }
        if let filter = selection.swiftTestingFilter {
            runs.append(Invocation(executable: path, arguments: ["--testing-library", "swift-testing", "--filter", filter]))
        }
        return runs
    }
}
