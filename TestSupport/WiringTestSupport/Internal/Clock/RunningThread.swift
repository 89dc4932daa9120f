import Foundation

/// Whether a thread is on the processor or waiting for one: what tells the test clock that a task
/// it woke is still running (held off by a busy machine) rather than done. Linux tells it in
/// `/proc`; elsewhere nothing is known, and the clock waits its least grace only.
enum RunningThread {
    /// The calling thread, where the platform can tell later whether it runs.
    static func current() -> Int? {
        #if os(Linux)
        return stat(of: "/proc/thread-self/stat").map(\.thread)
        #else
        return nil
        #endif
    }

    /// Whether `thread`, of this process, is running or ready to run: not asleep, not waiting
    /// for work, not gone.
    static func isRunnable(_ thread: Int) -> Bool {
        #if os(Linux)
        return stat(of: "/proc/self/task/\(thread)/stat")?.state == "R"
        #else
        return false
        #endif
    }

    /// The thread's identity and state from its `stat` line: `tid (name) state …`, the name
    /// possibly holding spaces and parentheses, so the state follows the last `)`.
    private static func stat(of path: String) -> (thread: Int, state: Character)? {
        guard let line = try? String(contentsOfFile: path, encoding: .utf8),
            let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"),
            let thread = Int(line[..<open].trimmingCharacters(in: .whitespaces))
        else { return nil }
        guard let state = line[line.index(after: close)...].first(where: { $0 != " " }) else { return nil }
        return (thread, state)
    }
}
