import Foundation
import WiringLeakCases

// wiring-leaks: walks the engine's paths (success, errors, back-off and retry, waits, kept
// resolvers, a test container), each case building its own containers and dropping them before
// it returns, so that LeakSanitizer, at exit, sees only what a case failed to release.
//
//     wiring-leaks              # every case, in this process
//     wiring-leaks NAME…        # the named cases
//     wiring-leaks --list       # the names, one a line
//
// CI runs it built with --sanitize=address, one case per process with
// ASAN_OPTIONS=detect_leaks=1, so that a leak names its case. Exits 1 if a case's outcome is
// not the one due (as Address Sanitizer does after a leak report), 2 for a name it does not know.

/// Writes a line at once: LeakSanitizer ends the process without flushing buffered output, and
/// a case's own line is due before the leak report that follows it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--list"] {
    for leakCase in LeakCase.all { say(leakCase.name) }
    exit(0)
}
if arguments.contains(where: { $0.hasPrefix("-") }) {
    FileHandle.standardError.write(Data("usage: wiring-leaks [--list | NAME…]\n".utf8))
    exit(2)
}
var cases: [LeakCase] = []
for name in arguments {
    guard let leakCase = LeakCase.named(name) else {
        FileHandle.standardError.write(Data("wiring-leaks: no case named \(name); see wiring-leaks --list\n".utf8))
        exit(2)
    }
    cases.append(leakCase)
}
if cases.isEmpty { cases = LeakCase.all }

// Each case runs in a task of its own, which ends before LeakSanitizer looks: an async
// function's frames live in its task's allocator, not on a thread's stack, and what a case's
// frames left there (a pointer to an object it leaked, say) would keep the leak reachable, so
// unreported, for as long as the task lived. The failure comes back as text, holding nothing.
var failed = 0
for leakCase in cases {
    let start = ContinuousClock.now
    let failure = await Task.detached { () async -> String? in
        do {
            try await leakCase.run()
            return nil
        } catch {
            return "\(error)"
        }
    }.value
    if let failure {
        failed += 1
        say("\(leakCase.name) (\(leakCase.summary)): FAILED: \(failure)")
    } else {
        say("\(leakCase.name): ok (\(ContinuousClock.now - start))")
    }
}
exit(failed == 0 ? 0 : 1)
