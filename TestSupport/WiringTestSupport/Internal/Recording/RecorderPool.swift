/// The recorders of a trace store that no resolution is using: those ready for the next
/// resolution, and those whose steps nobody has read yet, with what the store noted about them.
/// Each recorder is held once: by one of these lists, or by the resolution using it. Kept
/// under the layer stack's lock (see ``LayerStack/withSnapshot(_:)``).
struct RecorderPool {
    /// Recorders ready for the next resolution.
    private var idle: [TraceRecorder] = []
    /// Recorders of finished resolutions, in the order they finished.
    private var finished: [TraceRecorder] = []
    /// The finished recorders whose steps go only into counts and instance numbers, not into
    /// the trace: those that finished while recording was off. Rarely any.
    private var withoutTree: Set<ObjectIdentifier> = []
    /// The steps of finished recorders that made a kept instance again because an override
    /// made the cached one stale, by recorder and step. Rarely any.
    private var remadeSteps: [ObjectIdentifier: [Int: LayerSnapshot.StaleInstance]] = [:]
    /// Whether finished resolutions go into the trace, or only into counts and numbers.
    var isRecording = true
    /// Whether resolutions note the objects they make, for `leakedInstances()`.
    var tracksMadeObjects = MadeObjects.trackedByDefault
    /// Set once the trace store has let go of its recorders: none is kept from then on.
    private(set) var isClosed = false
    /// How many instances the finished recorders' steps made, while forgetting each of them
    /// needs nothing else; `nil` once one needs more.
    private var madeOnlyByFinished: Int? = 0

    /// The idle recorder given back last, if any.
    mutating func takeIdle() -> TraceRecorder? {
        idle.popLast()
    }

    /// When the one given back last serves other layers: gives it back, and takes the idle
    /// recorder that `serves` accepts; else the one given back longest ago, for the caller to
    /// replace (it serves layers that changed, or a task in `withOverrides` that may have
    /// ended). Tasks in `withOverrides` in parallel each find their own recorder this way.
    @inline(never)
    mutating func takeIdle(
        insteadOf other: TraceRecorder, serving serves: (TraceRecorder) -> Bool
    ) -> (recorder: TraceRecorder, serves: Bool) {
        if let index = idle.lastIndex(where: serves) {
            let found = idle.remove(at: index)
            idle.append(other)
            return (found, true)
        }
        guard !idle.isEmpty else { return (other, false) }
        idle.append(other)
        return (idle.removeFirst(), false)
    }

    /// Takes back the recorder of a finished resolution: until its steps are read, unless it
    /// recorded none (`isEmpty`).
    /// - Parameters:
    ///   - remade: The steps that made a kept instance again, and why, by index.
    ///   - madeOnly: How many instances its steps made, when forgetting them needs nothing else
    ///     (see `StepLog.endSummarized(inside:)`).
    /// - Returns: Whether the pool kept it; not once closed.
    mutating func giveBack(
        _ recorder: TraceRecorder, isEmpty: Bool, remade: [Int: LayerSnapshot.StaleInstance]?, madeOnly: Int?
    ) -> Bool {
        guard !isClosed else { return false }
        guard !isEmpty else {
            idle.append(recorder)
            return true
        }
        if !isRecording { withoutTree.insert(ObjectIdentifier(recorder)) }
        if let remade, !remade.isEmpty { remadeSteps[ObjectIdentifier(recorder)] = remade }
        if let total = madeOnlyByFinished { madeOnlyByFinished = madeOnly.map { total + $0 } }
        finished.append(recorder)
        return true
    }

    /// What forgetting the finished recorders takes.
    enum Forgetting {
        /// Only skipping the numbers of this many new instances: the recorders are idle again
        /// already, their logs emptied when next used.
        case madeOnly(Int)
        /// Forgetting each of these, in order.
        case recorders([TraceRecorder])
    }

    /// Takes the finished recorders to forget their steps, dropping what was noted about them.
    mutating func takeFinishedToForget() -> Forgetting {
        defer {
            if !withoutTree.isEmpty { withoutTree = [] }
            if !remadeSteps.isEmpty { remadeSteps = [:] }
        }
        guard let made = madeOnlyByFinished else { return .recorders(takeFinished().recorders) }
        if idle.isEmpty { idle = finished } else { idle.append(contentsOf: finished) }
        finished.removeAll(keepingCapacity: true)
        madeOnlyByFinished = 0
        return .madeOnly(made)
    }

    /// The recorders whose steps nobody has read yet, in the order they finished, each with
    /// whether its steps go into the trace and which of them made a kept instance again.
    mutating func takeFinished() -> (recorders: [TraceRecorder], notes: [Note]) {
        let recorders = finished
        finished.removeAll(keepingCapacity: true)
        madeOnlyByFinished = 0
        guard !withoutTree.isEmpty || !remadeSteps.isEmpty else { return (recorders, []) }
        defer {
            withoutTree = []
            remadeSteps = [:]
        }
        let notes = recorders.map { recorder in
            let identifier = ObjectIdentifier(recorder)
            return Note(keepsTree: !withoutTree.contains(identifier), remade: remadeSteps[identifier] ?? [:])
        }
        return (recorders, notes)
    }

    /// What the store noted about a finished recorder; the default when there is nothing.
    struct Note {
        /// Whether its steps go into the trace, or only into counts and instance numbers.
        var keepsTree = true
        /// The steps that made a kept instance again, and why, by index.
        var remade: [Int: LayerSnapshot.StaleInstance] = [:]
    }

    /// Makes recorders whose steps were read ready again.
    /// - Returns: Whether the pool kept them; not once closed.
    mutating func reuse(_ recorders: consuming [TraceRecorder]) -> Bool {
        guard !isClosed else { return false }
        // Taken over whole when none are idle: no recorder is retained and released again.
        if idle.isEmpty { idle = recorders } else { idle.append(contentsOf: recorders) }
        return true
    }

    /// Every recorder, leaving the pool empty and keeping none from now on.
    mutating func close() -> [TraceRecorder] {
        defer {
            idle = []
            finished = []
            withoutTree = []
            remadeSteps = [:]
            madeOnlyByFinished = 0
            isClosed = true
        }
        return idle + finished
    }
}
