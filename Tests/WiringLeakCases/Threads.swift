import Foundation
import WiringTestHelpers

// Threads that are gone when a case returns. `raceThreads` from WiringTestHelpers returns once
// every body has run, while the threads may still be ending and holding their closures, and so
// whatever those captured (a container): alive at exit, such an object shows as a leak of its
// weak-reference side table. These return only once each thread has let go of its closure.

/// Notes each thread that let go of its closure.
private final class Departures: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func note() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Blocks until `expected` threads have let go, or `deadline` passed; false then.
    func wait(for expected: Int, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count < expected {
            if !condition.wait(until: deadline) { return count >= expected }
        }
        return true
    }
}

/// Captured by a thread's closure only: freed with the closure, it notes that the thread let go.
private final class Departure: Sendable {
    private let departures: Departures
    init(_ departures: Departures) { self.departures = departures }
    deinit { departures.note() }
}

/// The stack of a case's thread: ample for the shallow bodies here, under Address Sanitizer too.
private let stackSize = 2 << 20

/// Starts `count` threads running `body` with their index, released together.
private func start(_ count: Int, _ departures: Departures, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = StartBarrier(parties: count)
    for index in 0..<count {
        let departure = Departure(departures)
        let thread = Thread {
            withExtendedLifetime(departure) {
                barrier.arriveAndWait()
                body(index)
            }
        }
        thread.stackSize = stackSize
        thread.start()
    }
}

/// Runs `body` on `count` new threads released together (`what` they do names a timeout) and returns once every thread has run
/// it and let go of it, suspending meanwhile (the cooperative pool stays free).
/// - Throws: ``Hung`` when they have not within `timeout`: a deadlock.
func race(
    _ what: String, threads count: Int = 8, timeout: Duration = .seconds(120), _ body: @escaping @Sendable (Int) -> Void
) async throws {
    let departures = Departures()
    start(count, departures, body)
    let deadline = ContinuousClock.now + timeout
    while departures.value < count {
        guard ContinuousClock.now < deadline else { throw Hung(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Runs `body` on a new thread and blocks the caller until the thread has run it and let go of it.
/// - Throws: ``Hung`` when it has not within `timeout`.
func onAnotherThread(_ what: String, timeout: TimeInterval = 120, _ body: @escaping @Sendable () -> Void) throws {
    let departures = Departures()
    start(1, departures) { _ in body() }
    guard departures.wait(for: 1, until: Date(timeIntervalSinceNow: timeout)) else { throw Hung(what: what) }
}
