import Dispatch
import Foundation

// Racing threads for the exactly-once tests: real threads started together, counts and
// identities kept under one lock, and a time limit, so that a second instance fails the test
// (instead of hiding in a lost update) and a deadlock fails it (instead of hanging the suite).

/// A count kept under a lock, to count from any thread.
public final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    public func increment() {
        lock.withLock { count += 1 }
    }

    public var value: Int { lock.withLock { count } }
}

/// The distinct objects seen from any thread, each insert one step under one lock.
///
/// It keeps the objects alive, so that a freed object's address cannot be reused by a later
/// one and make two instances look like one.
public final class IdentityCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [ObjectIdentifier: AnyObject] = [:]
    private var identifiers: Set<ObjectIdentifier> = []
    private var inserted = 0

    public init() {}

    /// Notes an object, and keeps it alive as long as the collector.
    public func insert(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        lock.withLock {
            objects[id] = object
            identifiers.insert(id)
            inserted += 1
        }
    }

    /// Notes an identifier (the caller keeps its object alive).
    public func insert(_ id: ObjectIdentifier) {
        lock.withLock {
            identifiers.insert(id)
            inserted += 1
        }
    }

    /// How many different objects were inserted.
    public var distinctCount: Int { lock.withLock { identifiers.count } }

    /// How many inserts there were, counting repeats.
    public var count: Int { lock.withLock { inserted } }
}

/// Holds threads until all have arrived, then lets them go together.
///
/// The threads sleep on a condition rather than spin: spinning races a little harder (a woken
/// sleeper starts microseconds after the one that woke it), but eight spinning threads on two
/// cores starve the tasks and tests running beside them, which under the thread sanitizer made
/// an async race miss its 30-second bound. The hardest racing is `wiring-stress`'s, run by CI
/// for 100 rounds per shape in debug and release.
public final class StartBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    public init(parties: Int) {
        waiting = parties
    }

    /// Waits until every party has arrived, or until `deadline`; returns false when the
    /// deadline passed first. The threads sleep while they wait: spinning ones would take the
    /// cores from the tasks and tests running beside them (two cores here, and far slower
    /// under the sanitizers).
    @discardableResult
    public func arriveAndWait(deadline: Date = .distantFuture) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 {
            condition.broadcast()
            return true
        }
        while waiting > 0 {
            // Without a deadline, wait plainly: Foundation on Linux traps converting
            // `Date.distantFuture` to a timeout.
            if deadline == .distantFuture {
                condition.wait()
            } else if !condition.wait(until: deadline) {
                return waiting <= 0
            }
        }
        return true
    }
}

/// How long a racing factory takes: `.fast` to race the check for an instance against making
/// it, `.slow` to have the other threads arrive while the first is still making it.
public enum FactorySpeed: String, CaseIterable, Sendable, CustomStringConvertible {
    case fast
    case slow

    /// Slows a synchronous factory down, for `.slow`.
    public func work() {
        if self == .slow { usleep(1_000) }
    }

    /// Slows an async factory down, for `.slow` (suspending, so other tasks run meanwhile).
    public func asyncWork() async {
        if self == .slow { try? await Task.sleep(nanoseconds: 1_000_000) }
    }

    /// How many rounds a test races at this speed: a slow factory is caught making a second
    /// instance in the first round, a fast one only in some rounds (see ``StartBarrier``), so
    /// it gets more of them.
    public var rounds: Int { self == .fast ? 200 : 50 }

    public var description: String { rawValue }
}

/// Starts `count` new threads (not a pool: as many as asked, whatever the core count), has them
/// run `body` with their index together (after a barrier), and waits for all of them.
///
/// - Returns: false if they had not all finished within `timeout` (a deadlock, say), so that the
///   test fails with a message instead of hanging. Threads still running are left to run.
public func raceThreads(
    _ count: Int = 8, timeout: Duration = .seconds(30), _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let group = startThreads(count, timeout: timeout, body)
    return group.wait(timeout: .now() + timeout.dispatchInterval) == .success
}

/// ``raceThreads(_:timeout:_:)`` for async tests: waits without blocking the caller's thread,
/// so that tasks the racing threads start can run on the cooperative pool.
///
/// The bound is longer than the synchronous one's: tasks the threads start need the cooperative
/// pool (as wide as the cores, two here), which tests running beside this one may hold for
/// seconds at a time (a child process under a sanitizer, say). A deadlock still fails the test.
public func raceThreadsAsync(
    _ count: Int = 8, timeout: Duration = .seconds(180), _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    let group = startThreads(count, timeout: timeout, body)
    let once = OnceFlag()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        group.notify(queue: .global()) {
            if once.claim() { continuation.resume(returning: true) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
            if once.claim() { continuation.resume(returning: false) }
        }
    }
}

/// Runs an async `body` from a racing thread (one of ``raceThreads(_:timeout:_:)``'s, never a
/// cooperative one) and blocks that thread until it is done.
public func awaitOnThisThread<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let result = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    Task {
        result.set(await body())
        done.signal()
    }
    done.wait()
    return result.get()!
}

/// Runs `body` for rounds 1...`count`, stopping at the first that throws (a failed
/// `#require`), so that a race that happens once in many rounds fails the test with its round.
public func rounds(_ count: Int, _ body: (_ round: Int) throws -> Void) rethrows {
    for round in 1...count { try body(round) }
}

/// ``rounds(_:_:)`` for async rounds.
public func rounds(_ count: Int, _ body: (_ round: Int) async throws -> Void) async rethrows {
    for round in 1...count { try await body(round) }
}

/// The stack of a racing thread: 1 MB, or 4 MB under Address Sanitizer, whose frames are several
/// times larger (a 1 MB stack overflowed there while many tests raced at once). Not 4 MB
/// everywhere: Thread Sanitizer's work per thread grows with its stack, and thousands of racing
/// threads then slowed the whole suite down.
private let racingStackSize: Int = {
    #if canImport(Darwin)
    let everyImage = UnsafeMutableRawPointer(bitPattern: -2)   // RTLD_DEFAULT
    #else
    let everyImage: UnsafeMutableRawPointer? = nil               // RTLD_DEFAULT
    #endif
    return dlsym(everyImage, "__asan_init") != nil ? 4 << 20 : 1 << 20
}()

private func startThreads(_ count: Int, timeout: Duration, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    precondition(count > 0, "race at least one thread")
    let start = StartBarrier(parties: count)
    let deadline = Date(timeIntervalSinceNow: timeout.timeInterval)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.arriveAndWait(deadline: deadline)
            body(index)
            group.leave()
        }
        thread.stackSize = racingStackSize
        thread.start()
    }
    return group
}

private final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}

private final class ResultBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value? { lock.withLock { value } }
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    fileprivate var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(min(timeInterval * 1e9, Double(Int.max / 2))))
    }
}

/// Whether `semaphore` is signalled within `seconds`, waited for on a Dispatch thread: a test
/// that blocked a thread of the cooperative pool would take it from the tasks it waits for.
public func signalled(_ semaphore: DispatchSemaphore, within seconds: Double = 10) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success)
        }
    }
}
