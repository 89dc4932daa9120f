import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program in a process group of its own, its output (standard output and standard
/// error together) into a file, and cuts it at a time limit: the whole group is killed, so that
/// a hung test and whatever it started stop together.
package enum BoundedProcess {
    /// How a run ended.
    package struct Outcome: Equatable, Sendable {
        /// The exit status, or the signal's number when `wasSignalled`.
        package let status: Int32
        package let wasSignalled: Bool
        /// Whether it ran past the limit and was killed.
        package let timedOut: Bool
        /// How long it ran, in seconds.
        package let seconds: Double

        package var succeeded: Bool { !timedOut && !wasSignalled && status == 0 }
    }

    /// Why a program could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `executable` with `arguments` and `environment` (the whole of it), writing its
    /// output to `outputPath`, for at most `timeout` seconds.
    package static func run(
        _ executable: String, arguments: [String], environment: [String: String], outputPath: String, timeout: Double
    ) throws -> Outcome {
        let began = Date()
        let process = try start(executable, arguments: arguments, environment: environment, outputPath: outputPath)
        let pid = process.processIdentifier
        // Foundation starts each process in a group of its own (Linux, Darwin): the limit kills
        // the group whole, so that a hung test and whatever it started stop together.
        let leadsGroup = getpgid(pid) == pid
        let deadline = began.addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline {
                stop(pid, group: leadsGroup)
                process.waitUntilExit()
                return Outcome(status: SIGKILL, wasSignalled: true, timedOut: true, seconds: Date().timeIntervalSince(began))
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        // What is left of the group (a child the test started and never waited for) goes too.
        if leadsGroup { stop(pid, group: true) }
        let seconds = Date().timeIntervalSince(began)
        let signalled = process.terminationReason == .uncaughtSignal
        return Outcome(status: process.terminationStatus, wasSignalled: signalled, timedOut: false, seconds: seconds)
    }

    /// Runs `executable` as `run` does and returns its output too.
    package static func capture(
        _ executable: String, arguments: [String], environment: [String: String], in directory: String, timeout: Double
    ) throws -> (outcome: Outcome, output: String) {
        let path = (directory as NSString).appendingPathComponent("capture-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try run(executable, arguments: arguments, environment: environment, outputPath: path, timeout: timeout)
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (outcome, output)
    }

    /// Starts `executable` with its output (standard output and standard error together) in
    /// the file at `outputPath` and nothing on its standard input.
    private static func start(
        _ executable: String, arguments: [String], environment: [String: String], outputPath: String
    ) throws -> Process {
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw Failure(description: "cannot create \(outputPath)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(executable): \(error.localizedDescription)")
        }
        return process
    }

    /// Kills the process group `pid` leads, or where it leads none, the process alone.
    private static func stop(_ pid: pid_t, group: Bool) {
        _ = kill(group ? -pid : pid, SIGKILL)
    }
}
