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
        let start = Date()
        let pid = try spawn(executable, arguments: arguments, environment: environment, outputPath: outputPath)
        let deadline = start.addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR {
                throw Failure(description: "cannot wait for \(executable) (errno \(errno))")
            }
            if Date() >= deadline {
                // The group the child leads: the test binary and anything it started.
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return Outcome(status: SIGKILL, wasSignalled: true, timedOut: true, seconds: Date().timeIntervalSince(start))
            }
            usleep(10_000)
        }
        // What is left of the group (a child the test started and never waited for) goes too.
        kill(-pid, SIGKILL)
        let seconds = Date().timeIntervalSince(start)
        let signal = status & 0x7f
        if signal != 0 { return Outcome(status: signal, wasSignalled: true, timedOut: false, seconds: seconds) }
        return Outcome(status: (status >> 8) & 0xff, wasSignalled: false, timedOut: false, seconds: seconds)
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

    private static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], outputPath: String
    ) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // A group of its own, which the time limit kills whole.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { arguments -> Int32 in
            (envp + [nil]).withUnsafeBufferPointer { environment -> Int32 in
                // Never empty: each holds its terminating nil at least.
                guard let arguments = arguments.baseAddress, let environment = environment.baseAddress else { return EINVAL }
                return posix_spawn(&pid, executable, &actions, &attributes, arguments, environment)
            }
        }
        guard result == 0 else {
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }
}
