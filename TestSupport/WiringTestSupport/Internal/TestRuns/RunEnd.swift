import Foundation
import Wiring

/// What happens when the test process ends: the wiring coverage is written where
/// `WIRING_COVERAGE` says, and the isolation sentinel's warnings that no running test could be
/// failed for are printed. Prepared once, by the first test container.
package enum RunEnd {
    /// The environment variable naming where the coverage report goes.
    static let coverageVariable = "WIRING_COVERAGE"
    /// The environment variable that makes warnings kept for the end of the run fail it: with
    /// `WIRING_STRICT=1`, the test process exits with status 1 after printing them, for CI.
    static let strictVariable = "WIRING_STRICT"

    private static let warnings = LockedState<[String]>([])

    /// Installs the end-of-run handler and the sentinel's hook into the core, once.
    private static let prepared: Void = {
        Container.onSharedFallback = { IsolationSentinel.sharedFallback(to: $0) }
        Container.onSharedAssigned = { IsolationSentinel.sharedAssigned($0) }
        Container.onScopeReset = { ResetSentinel.reset($0, scope: $1, at: $2) }
        if atexit(wiringRunEnded) != 0 {
            printToStandardError(
                "warning: Wiring could not register its end-of-run handler (atexit failed): "
                    + "no wiring coverage report and no isolation warnings will be written")
        }
    }()

    /// Prepares the end of the run, once; every test container calls it.
    static func prepare() {
        _ = prepared
    }

    /// Keeps `message` for the end of the run, unless it is kept already.
    static func warn(_ message: String) {
        prepare()
        warnings.withLock { warnings in
            if !warnings.contains(message) { warnings.append(message) }
        }
    }

    /// Takes the warnings kept so far, which the end of the run then does not print: for tests
    /// of the sentinel that check them in the process.
    package static func takeWarnings() -> [String] {
        warnings.withLock { warnings in
            defer { warnings = [] }
            return warnings
        }
    }

    /// Writes the coverage report, if asked for, and prints the warnings kept.
    static func finish() {
        if let path = ProcessInfo.processInfo.environment[coverageVariable], !path.isEmpty {
            do {
                try CoverageFile.write(WiringCoverage.current, to: path)
            } catch {
                printToStandardError("warning: Wiring could not write the coverage report to \(path): \(error)")
            }
        }
        FindingRouter.runEnded()
        let kept = takeWarnings()
        guard !kept.isEmpty else { return }
        let header = "Wiring: \(kept.count) finding\(kept.count == 1 ? "" : "s") "
            + "no running test could be failed for"
        printToStandardError(([header] + kept.map { "warning: \($0)" }).joined(separator: "\n"))
        guard isStrict else { return }
        printToStandardError("error: \(strictVariable)=1, so these warnings fail the run")
        // Already exiting: `exit` again would be undefined, and the status must change.
        _exit(1)
    }

    /// Whether warnings at the end of the run fail it (`WIRING_STRICT=1`).
    static var isStrict: Bool {
        ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment[strictVariable]?.lowercased() ?? "")
    }

    /// Prints `text` and a newline to standard error.
    package static func printToStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// The end-of-run handler `atexit` calls: a function, as C calls it.
private func wiringRunEnded() {
    RunEnd.finish()
}
