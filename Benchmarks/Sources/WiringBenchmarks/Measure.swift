import Dispatch

// The timing harness. Every variant of every scenario goes through the same loop: an opaque
// closure call per iteration, whose result's address is folded into an accumulator. Only the
// closure's body differs between hand-written code, Wiring and Swinject.

/// One operation to time: makes or fetches an object. The returned object keeps the work alive.
typealias Body = () throws -> AnyObject

// MARK: Keeping results alive

/// Where every loop's accumulator ends up, so the optimiser must compute it.
nonisolated(unsafe) var sink: UInt = 0

/// Folds a value into `sink` where the optimiser cannot see it unused.
@inline(never)
func blackHole(_ value: UInt) {
    sink &+= value
}

/// Returns its argument in a way the optimiser cannot see through, so closures passed through it
/// are called indirectly and never inlined into (or specialised for) the timing loop.
@inline(never)
@_optimize(none)
func opaque<Value>(_ value: Value) -> Value {
    value
}

/// The timing loop: calls `body` `iterations` times, summing the addresses of the results.
///
/// The address (not `hashValue`, which would run SipHash) costs one add per call; using it forces
/// each object to exist, and returning it from an opaque closure forces it onto the heap.
@inline(never)
func runLoop(_ iterations: Int, _ body: Body) throws -> UInt {
    var accumulator: UInt = 0
    for _ in 0..<iterations {
        accumulator &+= UInt(bitPattern: ObjectIdentifier(try body()))
    }
    return accumulator
}

// MARK: Running a sample

/// Lets a value cross into work run on other threads. Only the two-thread scenario does that, and
/// it hands over closures that are safe to call concurrently (Swinject through `synchronize()`).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

/// Collects what the threads of one sample produced.
private final class ThreadResults: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var accumulator: UInt = 0
    private var error: (any Error)?

    func add(_ value: UInt) {
        lock.wait()
        accumulator &+= value
        lock.signal()
    }

    func fail(_ failure: any Error) {
        lock.wait()
        error = failure
        lock.signal()
    }

    func result() throws -> UInt {
        if let error { throw error }
        return accumulator
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Runs `body` `iterations` times on each of `threads` threads at once and returns the wall time.
func timeSample(threads: Int, iterations: Int, _ body: Body) throws -> Duration {
    let clock = ContinuousClock()
    if threads == 1 {
        let start = clock.now
        let accumulator = try runLoop(iterations, body)
        let elapsed = start.duration(to: clock.now)
        blackHole(accumulator)
        return elapsed
    }
    // `concurrentPerform` returns once every thread is done, so `body` does not outlive the call.
    return try withoutActuallyEscaping(body) { body in
        let shared = UncheckedSendable(value: body)
        let results = ThreadResults()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                results.add(try runLoop(iterations, shared.value))
            } catch {
                results.fail(error)
            }
        }
        let elapsed = start.duration(to: clock.now)
        blackHole(try results.result())
        return elapsed
    }
}

// MARK: Measuring a variant

struct MeasureOptions {
    /// Timed samples per variant; the median is reported.
    var samples = 15
    /// What one sample should take; iterations are sized to match.
    var sampleTime: Duration = .milliseconds(30)
}

/// The samples of one variant, in nanoseconds per operation.
struct Measurement {
    let iterations: Int
    var nanosecondsPerOperation: [Double] = []

    var median: Double {
        let sorted = nanosecondsPerOperation.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    var minimum: Double { nanosecondsPerOperation.min() ?? .nan }
    var maximum: Double { nanosecondsPerOperation.max() ?? .nan }
}

/// Times `iterations` operations of one variant and returns the wall time of the timed part.
typealias SampleTimer = (_ iterations: Int) throws -> Duration

/// Finds how many iterations (per thread) make a sample last `options.sampleTime`, warming the
/// code up on the way: doubles the count until a run takes 5 ms, then runs one full sample.
func calibrate(threads: Int, options: MeasureOptions, _ body: Body) throws -> Int {
    try calibrate(options: options) { try timeSample(threads: threads, iterations: $0, body) }
}

func calibrate(options: MeasureOptions, _ timer: SampleTimer) throws -> Int {
    let target = options.sampleTime.nanoseconds
    var iterations = 1
    while true {
        var elapsed = try timer(iterations).nanoseconds
        if elapsed >= 5_000_000 {
            // Once more, keeping the faster: a run preempted for a few ms by another process
            // would otherwise size every sample of the variant far too small.
            elapsed = min(elapsed, try timer(iterations).nanoseconds)
        }
        if elapsed >= 5_000_000 || iterations >= 1 << 40 {
            let perIteration = max(elapsed / Double(iterations), 0.01)
            let sized = max(1, Int(target / perIteration))
            _ = try timer(sized)  // warm-up at full size
            return sized
        }
        iterations *= 2
    }
}

/// Measures the variants of one scenario in the same run, alternating between them sample by
/// sample so that a slow moment of the machine hits all of them alike.
func measure(threads: Int, options: MeasureOptions, _ bodies: [Body]) throws -> [Measurement] {
    let bodies = opaque(bodies)
    return try measure(
        options: options, operationsPerIteration: threads,
        bodies.map { body in { iterations in try timeSample(threads: threads, iterations: iterations, body) } })
}

/// Measures the variants' timers, alternating between them sample by sample.
func measure(options: MeasureOptions, operationsPerIteration: Int = 1, _ timers: [SampleTimer]) throws -> [Measurement] {
    var measurements = try timers.map { timer in
        Measurement(iterations: try calibrate(options: options, timer))
    }
    for _ in 0..<options.samples {
        for index in timers.indices {
            let iterations = measurements[index].iterations
            let elapsed = try timers[index](iterations)
            let operations = Double(iterations * operationsPerIteration)
            measurements[index].nanosecondsPerOperation.append(elapsed.nanoseconds / operations)
        }
    }
    return measurements
}

// MARK: Operations that need fresh state

/// An operation that needs state of its own, made before the clock starts: a cold pass needs a
/// container nothing was resolved from yet.
struct BatchedBody {
    /// Makes the state for one operation; not timed.
    let prepare: () throws -> AnyObject
    /// The timed operation, on state `prepare` made.
    let run: (AnyObject) throws -> AnyObject
}

/// Makes the state of `iterations` operations, then times running them. What they return is
/// kept until the clock has stopped, so freeing it (and the state) is not timed either.
@inline(never)
func timeBatch(iterations: Int, _ body: BatchedBody) throws -> Duration {
    let states = try (0..<iterations).map { _ in try body.prepare() }
    var results: [AnyObject] = []
    results.reserveCapacity(iterations)
    let run = opaque(body.run)
    let clock = ContinuousClock()
    let start = clock.now
    for state in states {
        results.append(try run(state))
    }
    let elapsed = start.duration(to: clock.now)
    blackHole(results.reduce(0) { $0 &+ UInt(bitPattern: ObjectIdentifier($1)) })
    return elapsed
}

/// Measures operations that need fresh state, alternating between the variants sample by sample.
func measureBatched(options: MeasureOptions, _ bodies: [BatchedBody]) throws -> [Measurement] {
    try measure(options: options, bodies.map { body in { iterations in try timeBatch(iterations: iterations, body) } })
}
