import Foundation

/// Counts from any thread.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var objects: [ObjectIdentifier] = []

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }

    /// Notes an object handed out, for counting distinct ones.
    func saw(_ object: AnyObject) {
        let id = ObjectIdentifier(object)
        lock.withLock { objects.append(id) }
    }

    var distinct: Int { lock.withLock { Set(objects).count } }
}

/// Holds threads until all have arrived, so that their work starts together.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(parties: Int) {
        waiting = parties
    }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 {
            condition.broadcast()
        } else {
            while waiting > 0 { condition.wait() }
        }
    }
}

/// Runs `body` on `threads` new threads at once (after a barrier), and returns when all are done.
func race(threads: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let start = Barrier(parties: threads)
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        let thread = Thread {
            start.arriveAndWait()
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        group.notify(queue: .global()) { continuation.resume() }
    }
}

/// Slows a factory down, for the `.slow` speed.
func work(_ speed: StressShape.Speed) {
    if speed == .slow { usleep(300) }
}
