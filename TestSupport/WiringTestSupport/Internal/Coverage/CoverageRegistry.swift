import Wiring

/// The wiring coverage of this process: the records of the test containers that went away,
/// added up, and the test containers alive now, whose records are read when asked for.
final class CoverageRegistry: Sendable {
    /// The registry of this process.
    static let shared = CoverageRegistry()

    private let state = LockedState(State())

    private struct State {
        var finished = CoverageRecord()
        var live: [ObjectIdentifier: ContainerCoverage] = [:]
        /// How many test containers were made, to name those no known test made.
        var made = 0
    }

    /// Adds a test container's coverage, as it is made.
    /// - Returns: Its number among the test containers of this process, from 1.
    func add(_ coverage: ContainerCoverage) -> Int {
        state.withLock { state in
            state.live[ObjectIdentifier(coverage)] = coverage
            state.made += 1
            return state.made
        }
    }

    /// Adds up the final record of a test container that goes away.
    func finish(_ coverage: ContainerCoverage) {
        let record = coverage.finalRecord()
        state.withLock { state in
            state.live[ObjectIdentifier(coverage)] = nil
            state.finished.merge(record)
        }
    }

    /// Every record so far: those of the test containers gone, and of those alive as they are now.
    /// The layers of every test container alive: what the reset sentinel looks through.
    var liveLayerStacks: [LayerStack] {
        state.withLock { $0.live.values.map(\.layers) }
    }

    var current: CoverageRecord {
        let live = state.withLock { $0.live }
        // Read outside the lock: reading a record replays resolutions, which may run code.
        let records = live.map { ($0.key, $0.value.record()) }
        return state.withLock { state in
            var total = state.finished
            // A test container that went away meanwhile is in `finished` already.
            for (identifier, record) in records where state.live[identifier] != nil {
                total.merge(record)
            }
            return total
        }
    }
}
