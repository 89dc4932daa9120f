import Dispatch

/// Stops on a failed pthread call: a lock that cannot be taken or given back leaves nothing safe to do.
func checkPthread(_ result: Int32, _ call: StaticString) {
    precondition(result == 0, "\(call) failed with error \(result)")
}

/// Where a lock stands in the one order in which a thread may take locks: a thread holding a
/// lock takes only locks of a higher rank. Debug builds check it on every lock taken and stop,
/// naming both locks, where it is broken; with one order no two threads can each hold what the
/// other waits for.
///
/// Most locks guard one concern and take nothing inside: they are `.leaf`. The few that are
/// held while other code runs have a rank of their own, below every lock that code may take.
/// The core declares its own ranks; a module that holds a lock while calling into the core
/// declares its ranks beside its locks, below ``container``.
package struct LockRank: Sendable, CustomStringConvertible {
    /// The position in the order: a thread holding a lock takes only locks of a higher value.
    package let value: Int
    /// The name the lock-order message gives it.
    package let description: String

    /// A rank at `value`, named `name` in messages.
    package init(_ value: Int, name: String) {
        self.value = value
        description = name
    }

    /// A container's registrations and kept instances; the variants a registration keeps per
    /// runtime arguments are read under it.
    package static let container = LockRank(100, name: "container")
    /// The default: nothing else is taken while it is held.
    package static let leaf = LockRank(1_000, name: "leaf")
}

/// A lock's place in the order of ``LockRank``, and where it was made, for the message; checked
/// in debug builds, nothing in release builds.
struct LockOrder: Sendable {
    #if DEBUG
    let rank: LockRank
    let site: String
    /// The lock itself, for checks that state is read under the one lock that guards it.
    let lock: ObjectIdentifier

    /// The locks the calling thread (or task) holds, innermost last: bound for the time each is
    /// held, which a lock's scope matches.
    @TaskLocal private static var held: [LockOrder] = []

    /// Whether the calling thread holds `lock` (see ``LockedState/identity``).
    static func holds(_ lock: ObjectIdentifier) -> Bool {
        held.contains { $0.lock == lock }
    }

    /// Whether the calling thread holds any lock.
    static var holdsAnyLock: Bool { !held.isEmpty }
    #endif

    init(rank: LockRank, file: StaticString, line: UInt, lock: AnyObject) {
        #if DEBUG
        self.rank = rank
        self.site = "\(file):\(line)"
        self.lock = ObjectIdentifier(lock)
        #endif
    }

    /// Runs `body`, which takes this lock and gives it back: debug builds first check that the
    /// calling thread takes locks in order, and know while it runs that the thread holds it.
    func whileHeld<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if DEBUG
        return try whileHeldInOrder(body)
        #else
        return try body()
        #endif
    }

    #if DEBUG
    func whileHeldInOrder<Result>(_ body: () throws -> Result) rethrows -> Result {
        if let innermost = Self.held.last {
            precondition(
                rank.value > innermost.rank.value,
                "lock order: the lock made at \(site) (\(rank)) was taken while holding the one made at "
                    + "\(innermost.site) (\(innermost.rank)); a thread takes locks only in LockRank's order")
        }
        LockAcquisitions.current?.note(site)
        return try Self.$held.withValue(Self.held + [self], operation: body)
    }
    #endif
}

#if DEBUG
/// The locks a piece of code takes, in order, by where each lock was made: debug builds count
/// them, for tests that hold a path to a number of lock acquisitions.
package final class LockAcquisitions: @unchecked Sendable {
    // Unchecked: noted only by the task that counts, on its own thread.
    package private(set) var sites: [String] = []

    @TaskLocal fileprivate static var current: LockAcquisitions?

    fileprivate func note(_ site: String) { sites.append(site) }

    /// The locks `body` takes on the calling task, by where each was made, in order.
    package static func counting(_ body: () throws -> Void) rethrows -> [String] {
        let acquisitions = LockAcquisitions()
        try $current.withValue(acquisitions, operation: body)
        return acquisitions.sites
    }
}
#endif

/// State guarded by a mutex.
package struct LockedState<State>: @unchecked Sendable {
    let buffer: UnsafeLockBuffer<State>
    let order: LockOrder

    package init(_ initialState: State, rank: LockRank = .leaf, file: StaticString = #fileID, line: UInt = #line) {
        buffer = UnsafeLockBuffer.make(initialState)
        order = LockOrder(rank: rank, file: file, line: line, lock: buffer)
    }

    /// Which lock this is, for debug checks that state is used under it.
    package var identity: ObjectIdentifier { ObjectIdentifier(buffer) }

    /// Runs `body` with the state, under the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(order, body)
    }
}

/// State guarded by a mutex, with a condition to wait on until another thread changes it.
package final class ConditionState<State>: @unchecked Sendable {
    private let buffer: UnsafeLockBuffer<State>
    private let order: LockOrder

    package init(_ initialState: State, rank: LockRank = .leaf, file: StaticString = #fileID, line: UInt = #line) {
        buffer = UnsafeLockBuffer.make(initialState)
        order = LockOrder(rank: rank, file: file, line: line, lock: buffer)
    }

    /// Runs `body` under the lock; with `broadcasting`, then wakes every thread waiting in
    /// ``withLockWaiting(_:)``.
    package func withLock<Result>(broadcasting: Bool = false, _ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(order, broadcasting: broadcasting, body)
    }

    /// Runs `step` under the lock until it says it is done; when it says to wait, gives the
    /// lock up until another thread changes the state with `withLock(broadcasting: true)`, then
    /// runs it again on the state as it is then.
    package func withLockWaiting<Result>(_ step: (inout State) throws -> ConditionStep<Result>) rethrows -> Result {
        try buffer.withLockWaiting(order, step)
    }
}

/// What one run of a ``ConditionState/withLockWaiting(_:)`` step decided.
package enum ConditionStep<Result> {
    /// Done, with this result.
    case done(Result)
    /// Wait for a change, then run the step again.
    case wait
}

/// Whether the caller runs on the main queue, which is the main actor's executor. This is not
/// always the main thread: after `dispatchMain()` a worker thread drains the main queue.
package enum MainQueue {
    package static var isCurrent: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
}
