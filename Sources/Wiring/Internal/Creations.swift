/// Makes each kept instance (`.container`, `.weak`, custom scopes) exactly once, with one claim
/// per instance instead of one lock per container tree.
///
/// A resolution claims an instance before running its factory and gives the claim back once
/// the instance is published (stored after its factory and hooks) or has failed. Another
/// resolution that needs the same instance meanwhile waits, then looks in the store again.
/// Each resolution waits for at most one claim, so waits form chains; a wait that would close a
/// chain onto itself (two resolutions each waiting for what the other is making, as two
/// singletons whose hooks resolve each other do when two threads start one each) would never
/// end. The resolution that would close it backs off instead: it throws ``WaitCycle``, which
/// unwinds it and gives its claims back, publishing nothing; its top-level call waits for the
/// other resolution's instance and starts again (see `ResolutionThread`). Where the two really
/// need each other to be built first, the next attempt meets the cycle on its own path, as a
/// `circular-dependency` error.
///
/// Two kept instances whose `initCompleted` hooks resolve each other, started on two threads at
/// once, would close such a cycle every time: each thread holds one and waits for the other.
/// Synchronous steps therefore make kept instances that have hooks one at a time, process-wide
/// (the hook gate, a claim like any other, taken before the instance's own and held until it
/// is published), as Swinject's one recursive lock per container does for every resolve: the
/// thread that makes one makes whatever its hooks need, and no factory runs twice. A backing off
/// (and a factory run again) remains only where a wait involves an instance without hooks that
/// its factory makes while another thread's hooks need it.
///
/// What stays impossible to detect: a factory that blocks on work of its own (a semaphore,
/// a `DispatchQueue.sync`) which waits for the instance that factory is making.
package enum Creations {
    /// One instance of one registration in one store.
    struct Key: Hashable {
        let store: ObjectIdentifier
        let entry: Int
    }

    private struct InFlight {
        let owner: ObjectIdentifier
        let key: ServiceKey
        /// Keeps `Key.store` from being freed and its identifier reused while claimed.
        let store: AnyObject
        var asyncWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private struct Table {
        var inFlight: [Key: InFlight] = [:]
        /// What each waiting resolution waits for.
        var waiting: [ObjectIdentifier: Key] = [:]
    }

    /// Thrown by a claim whose wait would never end; the top-level call waits for `key` to be
    /// free and tries again.
    package struct WaitCycle: Error {
        let key: Key
        let error: ResolutionError
    }

    /// What a look at the claims gave.
    package enum Attempt {
        /// The caller makes the instance, then calls `finish`.
        case claimed
        /// The caller's own resolution is making it already, further up (a hook asking for an
        /// instance still being built): the caller makes one without a claim of its own.
        case alreadyMine
        /// Another resolution is making it: the caller waits (``wait(_:)`` or ``waitAsync(_:)``),
        /// then looks in the store and attempts again.
        case busy(Wait)
    }

    /// A resolution's wait for the one making an instance, noted in the table (so that a wait
    /// that would close a chain onto itself is seen) until it ends.
    package struct Wait {
        fileprivate let key: Key
        fileprivate let maker: ObjectIdentifier
        fileprivate let waiter: ObjectIdentifier
    }

    private static let table = ConditionState(Table())

    /// Claims the instance of `entry` in `store` for `owner`, unless `owner` makes it already or
    /// another resolution does (then `owner` is noted as waiting for that one). Never waits:
    /// the caller does, blocking or suspended, which is all that tells a synchronous step from an
    /// asynchronous one.
    /// - Throws: ``WaitCycle`` when the wait would close a chain of waits onto `owner`.
    package static func attempt(
        _ entry: RegistrationEntry, in store: AnyObject, by owner: ObjectIdentifier, path: @autoclosure () -> [ServiceKey]
    ) throws -> Attempt {
        try attempt(Key(store: ObjectIdentifier(store), entry: entry.id), of: entry.key, in: store, by: owner, path: path())
    }

    /// Claims the hook gate for `owner`, about to make `entry`'s instance, which has hooks (see
    /// above), unless `owner` holds it already or another resolution does.
    /// - Throws: ``WaitCycle`` when the wait would close a chain of waits onto `owner`.
    static func attemptHookGate(
        for entry: RegistrationEntry, by owner: ObjectIdentifier, path: @autoclosure () -> [ServiceKey]
    ) throws -> Attempt {
        try attempt(hookGateKey, of: entry.key, in: hookGate, by: owner, path: path())
    }

    /// Gives the hook gate back.
    static func finishHookGate() {
        finish(hookGateKey)
    }

    /// What the hook gate is claimed on: an object of its own, which no store is.
    private static let hookGate = HookGate()
    private static let hookGateKey = Key(store: ObjectIdentifier(hookGate), entry: 0)
    private final class HookGate: Sendable {}

    private static func attempt(
        _ key: Key, of serviceKey: ServiceKey, in store: AnyObject, by owner: ObjectIdentifier,
        path: @autoclosure () -> [ServiceKey]
    ) throws -> Attempt {
        try table.withLock { table in
            guard let current = table.inFlight[key] else {
                table.inFlight[key] = InFlight(owner: owner, key: serviceKey, store: store)
                return .claimed
            }
            if current.owner == owner { return .alreadyMine }
            if let cycle = waitCycle(table, from: owner, for: key) {
                throw WaitCycle(key: key, error: deadlock(cycle, path: path()))
            }
            table.waiting[owner] = key
            return .busy(Wait(key: key, maker: current.owner, waiter: owner))
        }
    }

    /// Blocks the calling thread until the resolution `wait` waits for gives its claim back.
    package static func wait(_ wait: Wait) {
        table.withLockWaiting { table -> ConditionStep<Void> in
            if table.inFlight[wait.key]?.owner == wait.maker { return .wait }
            table.waiting[wait.waiter] = nil
            return .done(())
        }
    }

    /// ``wait(_:)`` for a resolution that awaits its factories: it suspends instead of blocking
    /// its thread.
    nonisolated(nonsending)
    package static func waitAsync(_ wait: Wait) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            table.withLock { table in
                // Resumed by `finish`, unless the maker finished meanwhile.
                guard table.inFlight[wait.key]?.owner == wait.maker else { return continuation.resume() }
                table.inFlight[wait.key]?.asyncWaiters.append(continuation)
            }
        }
        table.withLock { table in table.waiting[wait.waiter] = nil }
    }

    /// Waits until nobody is making the instance a backed-off resolution waited for.
    static func waitUntilFree(_ key: Key) {
        table.withLockWaiting { table in
            table.inFlight[key] == nil ? .done(()) : .wait
        }
    }

    /// ``waitUntilFree(_:)`` for a call that awaits: it suspends instead of blocking its thread.
    nonisolated(nonsending)
    static func waitUntilFreeAsync(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            table.withLock { table in
                // Resumed by `finish`, unless nobody is making it any more.
                guard table.inFlight[key] != nil else { return continuation.resume() }
                table.inFlight[key]?.asyncWaiters.append(continuation)
            }
        }
    }

    /// Gives back a claim: the instance is published, or its making failed.
    package static func finish(_ entry: RegistrationEntry, in store: AnyObject) {
        finish(Key(store: ObjectIdentifier(store), entry: entry.id))
    }

    private static func finish(_ key: Key) {
        let waiters = table.withLock(broadcasting: true) { table in
            table.inFlight.removeValue(forKey: key)?.asyncWaiters ?? []
        }
        for continuation in waiters { continuation.resume() }
    }

    /// The keys of a chain of waits that would lead from `key`'s maker back to `owner`, if any.
    private static func waitCycle(_ table: Table, from owner: ObjectIdentifier, for key: Key) -> [ServiceKey]? {
        var keys: [ServiceKey] = []
        var next = key
        // Each resolution waits for one claim at most, so the chain ends or returns to `owner`.
        for _ in 0...table.waiting.count {
            guard let holder = table.inFlight[next] else { return nil }
            keys.append(holder.key)
            if holder.owner == owner { return keys }
            guard let waitedFor = table.waiting[holder.owner] else { return nil }
            next = waitedFor
        }
        return nil
    }

    private static func deadlock(_ keys: [ServiceKey], path: [ServiceKey]) -> ResolutionError {
        let requested = keys[0]
        return ResolutionError(
            key: requested, path: path + [requested],
            reason: .circularDependency(cycle: keys + [requested]))
    }
}
