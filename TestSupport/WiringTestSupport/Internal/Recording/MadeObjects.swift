import Wiring

/// Every object a test container's resolutions made, held weakly, with the resolution steps that
/// made it: what `leakedInstances()` looks through. Noting costs a weak reference per object;
/// the path and the class name are worked out only for objects still alive when asked.
final class MadeObjects: Sendable {
    /// The keys and parents of one resolution's steps, shared by the objects it made.
    final class Steps: Sendable {
        let keys: [ServiceKey]
        let parents: [Int]
        /// The ids of the `withOverrides` layers the resolution ran inside: while one of them is
        /// bound to another task, what it made belongs to that task's test.
        let madeInside: [Int]

        init(keys: [ServiceKey], parents: [Int], madeInside: [Int]) {
            self.keys = keys
            self.parents = parents
            self.madeInside = madeInside
        }

        /// The keys from the top-level request down to step `index`.
        func path(to index: Int) -> [ServiceKey] {
            var path: [ServiceKey] = []
            var step = index
            while step >= 0 {
                path.append(keys[step])
                step = parents[step]
            }
            return path.reversed()
        }
    }

    private struct Record {
        weak var object: AnyObject?
        let steps: Steps
        let step: Int
    }

    private let records = LockedState<[Record]>([])

    /// On in debug builds, where test suites run; off in release builds, where a weak reference
    /// per object made (which moves its reference counts aside) would triple the cost of a
    /// recorded resolve.
    #if DEBUG
    static let trackedByDefault = true
    #else
    static let trackedByDefault = false
    #endif


    /// Notes the objects a resolution made, each with its step among `steps`.
    func note(_ made: [(object: AnyObject, step: Int)], steps: Steps) {
        records.withLock { records in
            // Drop notes of objects gone, so that a long test keeps only what lives.
            if records.count >= 4_096, records.count.isMultiple(of: 4_096) { records.removeAll { $0.object == nil } }
            for (object, step) in made { records.append(Record(object: object, steps: steps, step: step)) }
        }
    }

    /// The objects still alive, in the order made, each with the path that made it.
    var alive: [(object: AnyObject, path: [ServiceKey])] {
        alive(exceptMadeInside: [])
    }

    /// The objects still alive, in the order made, each with the path that made it, but those
    /// made inside one of the `withOverrides` layers with an id in `layers`.
    func alive(exceptMadeInside layers: Set<Int>) -> [(object: AnyObject, path: [ServiceKey])] {
        let living = records.withLock { records in
            records.compactMap { record -> (object: AnyObject, steps: Steps, step: Int)? in
                // Skipped before its object is taken: a reference let go of here could be the
                // last, and a deinit may resolve under the caller's lock.
                if !layers.isEmpty, record.steps.madeInside.contains(where: layers.contains) { return nil }
                return record.object.map { (object: $0, steps: record.steps, step: record.step) }
            }
        }
        return living.map { ($0.object, $0.steps.path(to: $0.step)) }
    }
}
