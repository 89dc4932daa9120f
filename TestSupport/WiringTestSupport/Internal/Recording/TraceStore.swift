import Wiring

/// Everything a test container learns from its resolutions: it hands each top-level resolution
/// a ``TraceRecorder`` from its pool, takes it back when the resolution ends, and replays what
/// it recorded into the history (the trace, the counts, the registrations used, the stale
/// instances) only when something reads it.
final class TraceStore: Sendable {
    /// The layers resolutions begin with, and whose overrides make cached instances stale.
    private let layers: LayerStack
    /// What the recorders recorded, once something asked for it. Taken before the layer stack's
    /// lock, which guards the recorders, never after.
    private let history = LockedState(TraceHistory(), rank: .traceHistory)
    /// Every object the test container's resolutions made, held weakly, for `leakedInstances()`.
    let madeObjects = MadeObjects()

    /// A store for resolutions that begin with `layers`.
    init(layers: LayerStack) {
        self.layers = layers
    }

    /// Lets go of every recorder, as the test container goes away: each holds this store. No
    /// resolution runs then (its caller would hold the test container), and a recorder that
    /// finishes later is let go of too.
    func close() {
        let recorders = layers.withRecorders { $0.close() }
        // Released here, outside the lock: they may hold the last references to registrations.
        withExtendedLifetime(recorders) {}
    }

    /// The fakes whose use recorders note.
    var fakes: Fakes { layers.fakes }

    /// Whether resolutions go into the trace; counts and used registrations are kept regardless.
    var isRecording: Bool {
        get { layers.withRecorders { $0.isRecording } }
        set { layers.withRecorders { $0.isRecording = newValue } }
    }

    // MARK: Recording

    /// What a resolution from `source` starting now resolves in: the layers as they are now,
    /// recorded by a recorder it holds until it ends (when
    /// ``finished(_:isEmpty:hasStoredScopes:madeOnly:)`` takes it back).
    func makeEnvironment(for source: any ResolutionSource) -> ResolutionEnvironment {
        takeRecorder().environment(for: source)
    }

    /// An idle recorder for a resolution starting now, with the layers it sees and for the test
    /// running; made if there is none, or if the idle one serves layers that changed since or
    /// another test. Reports what the isolation sentinel finds wrong with resolving here now.
    private func takeRecorder() -> TraceRecorder {
        var outdated: TraceRecorder?
        var current: LayerSnapshot?
        var tracksMadeObjects = false
        let (ready, findings, test) = layers.withSnapshot { snapshot, recorders, test -> TraceRecorder? in
            tracksMadeObjects = recorders.tracksMadeObjects
            guard let idle = recorders.takeIdle() else {
                current = snapshot
                return nil
            }
            if _fastPath(idle.serves(snapshot, test: test)) { return idle }
            let other = recorders.takeIdle(insteadOf: idle) { $0.serves(snapshot, test: test) }
            if other.serves { return other.recorder }
            outdated = other.recorder
            // Handed out (and retained) only when a new recorder needs it.
            current = snapshot
            return nil
        }
        for finding in findings { finding.report() }
        if let ready {
            ready.emptyLog(collectingMadeObjects: tracksMadeObjects)
            return ready
        }
        // Let go of here, outside the lock: it may hold the last references to registrations,
        // whose release runs code.
        withExtendedLifetime(outdated) {}
        guard let current else { preconditionFailure("no snapshot for a new recorder") }
        let recorder = TraceRecorder(store: self, snapshot: current, test: test)
        recorder.log.collectsMadeObjects = tracksMadeObjects
        return recorder
    }

    /// Whether resolutions starting from now note the objects they make (see `MadeObjects`).
    var tracksMadeObjects: Bool {
        get { layers.withRecorders { $0.tracksMadeObjects } }
        set { layers.withRecorders { $0.tracksMadeObjects = newValue } }
    }

    /// Takes the recorder of a finished resolution back. Its steps stay as recorded until
    /// something reads the trace, the counts or the reports.
    /// - Parameters:
    ///   - isEmpty: Whether the resolution recorded no step, so there is nothing to replay.
    ///   - hasStoredScopes: Whether a step used a stored scope: only then did it make or skip a
    ///     kept instance.
    ///   - madeOnly: How many instances the steps made, when forgetting them needs nothing else.
    func finished(_ recorder: TraceRecorder, isEmpty: Bool, hasStoredScopes: Bool, madeOnly: Int?) {
        var remade: [Int: LayerSnapshot.StaleInstance]?
        if hasStoredScopes {
            remade = recorder.takeRemade()
        }
        // One the pool does not keep is let go of by the caller, outside the lock.
        _ = layers.withRecorders {
            $0.giveBack(recorder, isEmpty: isEmpty, remade: remade, madeOnly: madeOnly)
        }
    }

    // MARK: Reading

    /// Runs `body` on the history, once every finished resolution has been replayed into it.
    func withHistory<Result>(_ body: (inout TraceHistory) -> Result) -> Result {
        let (result, recorders) = history.withLock { history in
            let (recorders, notes) = layers.withRecorders { $0.takeFinished() }
            for (index, recorder) in recorders.enumerated() {
                let note = notes.isEmpty ? RecorderPool.Note() : notes[index]
                recorder.replay(into: &history, keepsTree: note.keepsTree, remade: note.remade)
            }
            return (body(&history), recorders)
        }
        reuse(recorders)
        return result
    }

    /// What coverage needs of every resolution, as the test container goes away: the
    /// registrations first used by resolutions nobody replayed are noted for their tests, and
    /// their recorders let go of, without building a trace nobody will read.
    func takeCoverage() -> CoverageRecord {
        let (coverage, recorders) = history.withLock { history in
            let recorders = layers.withRecorders { $0.takeFinished().recorders }
            for recorder in recorders { recorder.noteCoverage(into: &history) }
            return (history.coverage, recorders)
        }
        withExtendedLifetime(recorders) {}  // let go of outside the lock
        return coverage
    }

    /// Notes the overrides of `layer`, which goes away, for coverage: one no test used is reported.
    func noteOverrides(of layer: OverrideLayer) {
        let entries = layer.overrides.visibleRegistrations(includingParents: false).map(\.entry)
        guard !entries.isEmpty else { return }
        history.withLock { history in
            for entry in entries { history.coverage.note(entry, as: .override) }
        }
    }

    /// Sets the test that resolutions no known test made count for.
    func setUnattributedTest(_ name: String) {
        history.withLock { $0.unattributedTest = name }
    }

    /// The test that resolutions no known test made count for.
    var unattributedTestName: String {
        history.withLock { $0.unattributedTest }
    }

    /// Forgets the trace and the counts; registrations used so far stay used, and instance
    /// numbers go on from where they were.
    func clear() {
        let recorders = history.withLock { history -> [TraceRecorder] in
            defer {
                history.roots = []
                history.counts = [:]
            }
            // Forgetting steps that only made new instances only skips their numbers: done for
            // all of them at once, and their recorders empty their logs when next used.
            switch layers.withRecorders({ $0.takeFinishedToForget() }) {
            case .madeOnly(let count):
                history.numbers.skip(count)
                return []
            case .recorders(let recorders):
                for recorder in recorders {
                    recorder.forget(into: &history)
                }
                return recorders
            }
        }
        reuse(recorders)
    }

    /// Makes replayed recorders ready for the next resolutions.
    private func reuse(_ recorders: [TraceRecorder]) {
        guard !recorders.isEmpty else { return }
        _ = layers.withRecorders { $0.reuse(recorders) }
    }
}
