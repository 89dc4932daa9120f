import Wiring

/// Every object a test container's resolutions made, held weakly, with the resolution path that
/// made it: what `leakedInstances()` looks through.
final class MadeObjects: Sendable {
    struct Record {
        weak var object: AnyObject?
        /// The keys from the top-level request down to the one that made it.
        let path: [ServiceKey]
        /// The object's class, named as the trace names types.
        let typeName: String
    }

    private let records = LockedState<[Record]>([])

    /// Notes the objects a resolution made; they stay notes only while something holds them.
    func note(_ made: [(object: AnyObject, path: [ServiceKey])]) {
        guard !made.isEmpty else { return }
        let new = made.map { Record(object: $0.object, path: $0.path, typeName: typeName(type(of: $0.object))) }
        records.withLock { records in
            // Drop notes of objects gone, so that a long test keeps only what lives.
            if records.count > 1_024 { records.removeAll { $0.object == nil } }
            records += new
        }
    }

    /// The objects still alive, with what made each, in the order made.
    var alive: [(object: AnyObject, record: Record)] {
        records.withLock { records in records.compactMap { record in record.object.map { ($0, record) } } }
    }
}
