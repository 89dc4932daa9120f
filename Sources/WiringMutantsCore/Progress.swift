import Foundation

/// Tells, while mutants run, how many are done of how many, how many were killed so far, the
/// time spent and an estimate of the time left: one line rewritten in place on a terminal,
/// plain lines elsewhere (CI), at most one every few seconds there.
package final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let start = Date()
    private var done = 0
    private var killed = 0
    private var lastPrinted: Date?
    private let isTerminal: Bool
    private let write: @Sendable (String) -> Void

    /// Progress over `total` mutants, written by `write`, rewritten in place when `isTerminal`.
    package init(total: Int, isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.total = total
        self.isTerminal = isTerminal
        self.write = write
    }

    /// Notes one mutant done, killed (or caught) or not.
    package func finished(killed wasKilled: Bool) {
        let line: String? = lock.withLock {
            done += 1
            if wasKilled { killed += 1 }
            let now = Date()
            let isLast = done == total
            if !isTerminal, !isLast, let lastPrinted, now.timeIntervalSince(lastPrinted) < 5 { return nil }
            lastPrinted = now
            return Self.line(done: done, total: total, killed: killed, elapsed: now.timeIntervalSince(start))
        }
        guard let line else { return }
        write(isTerminal ? "\r\u{1B}[K" + line + (done == total ? "\n" : "") : line + "\n")
    }

    /// `[3/12] 2 killed, 5s elapsed, about 15s left`.
    package static func line(done: Int, total: Int, killed: Int, elapsed: Double) -> String {
        let left = done == 0 ? 0 : elapsed / Double(done) * Double(total - done)
        return "[\(done)/\(total)] \(killed) killed, \(Int(elapsed.rounded()))s elapsed, about \(Int(left.rounded()))s left"
    }
}
