import Foundation

/// Runs a case that could crash, hang or overflow the stack in a child process: the test binary
/// again, asked by an environment variable to run only that case. A regression then fails the
/// one test that checks the case, instead of killing the whole suite.
///
/// Each test target that has such cases declares an XCTest entry (a test method that runs the
/// case named by ``requestedCase`` and exits) and passes its name as `entry`.
public enum ChildProcess {
    /// The environment variable naming the case a child runs.
    public static let caseVariable = "WIRING_CHILD_CASE"

    /// The case this process was started to run, if it is a child.
    public static var requestedCase: String? {
        ProcessInfo.processInfo.environment[caseVariable]
    }

    /// How a child ended and what it printed.
    public struct Outcome: CustomStringConvertible, Sendable {
        /// The exit status, or the signal number when `wasSignalled`.
        public let status: Int32
        /// Whether a signal ended it (a crash, or the time limit).
        public let wasSignalled: Bool
        /// Whether it ran past the time limit and was killed.
        public let timedOut: Bool
        /// Standard output and standard error, together.
        public let output: String

        /// Whether it exited normally with status 0.
        public var succeeded: Bool { !wasSignalled && status == 0 && !timedOut }

        public var description: String {
            let end = timedOut ? "timed out" : wasSignalled ? "signal \(status)" : "exit \(status)"
            return "child process: \(end)\n\(output)"
        }
    }

    /// Whether this platform can run the test binary again as a child (Linux runs the test
    /// bundle as an executable; elsewhere a test runner loads it).
    public static var isSupported: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// Runs case `name` in a child process of the test binary through XCTest entry `entry`
    /// (`Module.Class/testMethod`), killing it after `timeout` seconds.
    /// - Parameter environment: Variables to set in the child, on top of this process's, less
    ///   the wiring coverage ones: a child writes a coverage report only where it is told to.
    public static func run(
        _ name: String, entry: String, timeout: Double = 30, environment: [String: String] = [:]
    ) throws -> Outcome {
        try run(name, arguments: [entry], timeout: timeout, environment: environment)
    }

    /// Runs the test binary again with `arguments` (an XCTest entry, or `--testing-library
    /// swift-testing --filter Suite`), with ``requestedCase`` set to `name`, killing it after
    /// `timeout` seconds.
    public static func run(
        _ name: String, arguments: [String], timeout: Double = 30, environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited["WIRING_COVERAGE"] = nil
        inherited["WIRING_COVERAGE_RUN"] = nil
        inherited[caseVariable] = name
        // A case that crashes on purpose must not start the runtime's backtracer: under a
        // sanitizer it can outlive the child by minutes, writing into the child's output after
        // the child was read. The crash message itself is printed before the backtracer starts.
        inherited["SWIFT_BACKTRACE"] = "enable=no"
        // Tests read the child's output as text: Swift Testing colours it in a colour terminal.
        inherited["NO_COLOR"] = "1"
        process.environment = inherited.merging(environment) { _, given in given }
        // Into a file, not a pipe: a pipe is read to its end only once every process holding its
        // write end has ended, and children other tests start meanwhile may inherit it, so each
        // child run waited for the slowest of them (a dozen tests ended together, minutes late
        // under a sanitizer, each holding a thread of the pool meanwhile).
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("wiring-child-\(UUID().uuidString).txt").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputPath])
        }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = output
        do {
            defer { try? output.close() }
            try process.run()
        }
        let (status, wasSignalled, timedOut) = reap(process, timeout: timeout)
        let text = FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Outcome(status: status, wasSignalled: wasSignalled, timedOut: timedOut, output: text)
    }

    /// Waits for the child to end, killing it after `timeout` seconds, and reaps it here with
    /// `waitpid`: Foundation's own reaping on Linux can miss a child that exits while many
    /// others do (the child stays a zombie and `waitUntilExit` never returns), which turned a
    /// finished case into a hung suite. Where Foundation reaped it first, its status is used.
    private static func reap(_ process: Process, timeout: Double) -> (status: Int32, signalled: Bool, timedOut: Bool) {
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                // The wait status as <sys/wait.h> encodes it: a signal in the low 7 bits, else an exit code.
                let signal = status & 0x7f
                return signal == 0 ? ((status >> 8) & 0xff, false, timedOut) : (signal, true, timedOut)
            }
            if reaped == -1, errno != EINTR { break }
            if !timedOut, Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(10_000)
        }
        // Reaped by Foundation: it sets the status right after, within a bounded wait.
        let settled = Date().addingTimeInterval(10)
        while process.isRunning, Date() < settled { usleep(10_000) }
        if process.isRunning { return (-1, false, true) }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, timedOut)
    }

    /// Runs the case this process was started for, from `cases`, printing what it returns
    /// between markers, then exits: the rest of the test binary does not run in a child.
    public static func runRequestedCase(from cases: [String: @Sendable () throws -> String]) -> Never {
        let name = requestedCase ?? ""
        guard let body = cases[name] else {
            print("no child case named \(name)")
            exit(3)
        }
        do {
            let result = try body()
            print("<<<\n\(result)\n>>>")
            exit(0)
        } catch {
            print("<<<\nthrew: \(error)\n>>>")
            exit(0)
        }
    }
}

extension ChildProcess.Outcome {
    /// What the Wiring isolation sentinel printed as the child ended: its header line, and the
    /// lines of the warnings that follow; empty when it printed nothing.
    public var sentinelWarnings: String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("Wiring: ") }) else { return "" }
        let block = lines[header...].prefix { $0 == lines[header] || $0.hasPrefix("warning: ") || $0.hasPrefix("  ") }
        return block.joined(separator: "\n")
    }

    /// What the case returned (or `threw: …`), between the child's markers.
    public var result: String? {
        guard let start = output.range(of: "<<<\n"), let end = output.range(of: "\n>>>", range: start.upperBound..<output.endIndex)
        else { return nil }
        return String(output[start.upperBound..<end.lowerBound])
    }
}
