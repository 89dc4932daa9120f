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
    private let history = LockedState(TraceHistory())
    private let staleInstances: StaleInstanceCheck

    /// A store for resolutions that begin with `layers`.
    init(layers: LayerStack) {
        self.layers = layers
        staleInstances = StaleInstanceCheck(layers: layers)
    }

    /// Lets go of every recorder, as the test container goes away: each holds this store, and
    /// its observer reference holds it. No resolution runs then (its caller would hold the
    /// test container), and a recorder that finishes later is let go of too.
    func close() {
        for recorder in layers.withRecorders({ $0.close() }) { recorder.detach() }
    }

    /// The fakes whose use recorders note.
    var fakes: Fakes { layers.fakes }

    /// Whether resolutions go into the trace; counts and used registrations are kept regardless.
    var isRecording: Bool {
        get { layers.withRecorders { $0.isRecording } }
        set { layers.withRecorders { $0.isRecording = newValue } }
    }

    // MARK: Recording

    /// Sets a resolution starting now up to look up in the layers as they are now and to be
    /// recorded, by a recorder it holds until it ends (when
    /// ``finished(_:isEmpty:hasStoredScopes:)`` takes it back).
    func prepare(_ resolution: Resolution) {
        takeRecorder().prepare(resolution)
    }

    /// A recorder for a resolution that sets itself up (one nested in another, or an async one),
    /// as that resolution holds it.
    func makeObserver() -> ObserverReference {
        takeRecorder().observerReference
    }

    /// An idle recorder for a resolution starting now, with the layers it sees; made if there is
    /// none, or if the idle one serves layers that changed since.
    private func takeRecorder() -> TraceRecorder {
        var outdated: TraceRecorder?
        let found = layers.withSnapshot { snapshot, recorders -> FoundRecorder in
            guard let idle = recorders.takeIdle() else { return .none(current: snapshot) }
            guard idle.serves(snapshot) else {
                outdated = idle
                return .none(current: snapshot)
            }
            return .ready(idle)
        }
        switch found {
        case .ready(let recorder):
            return recorder
        case .none(let snapshot):
            // Let go of here, outside the lock: it may hold the last references to registrations,
            // whose release runs code.
            outdated?.detach()
            return TraceRecorder(store: self, snapshot: snapshot)
        }
    }

    /// What the pool had for a resolution starting now.
    private enum FoundRecorder {
        /// An idle recorder that serves the current layers.
        case ready(TraceRecorder)
        /// None that does; the current layers, which a new one serves.
        case none(current: LayerSnapshot)
    }

    /// Takes the recorder of a finished resolution back. Its steps stay as recorded until
    /// something reads the trace, the counts or the reports; only kept instances are checked
    /// now, against the layers as they are now, for dependencies overridden since they were made.
    /// - Parameters:
    ///   - isEmpty: Whether the resolution recorded no step, so there is nothing to replay.
    ///   - hasStoredScopes: Whether a step used a stored scope: only then can an instance be stale.
    func finished(_ recorder: TraceRecorder, isEmpty: Bool, hasStoredScopes: Bool) {
        let stale = hasStoredScopes ? staleInstances.check(recorder.log) : nil
        let isKept = layers.withRecorders { $0.giveBack(recorder, isEmpty: isEmpty, stale: stale) }
        if !isKept { recorder.detach() }
    }

    // MARK: Reading

    /// Runs `body` on the history, once every finished resolution has been replayed into it.
    func withHistory<Result>(_ body: (inout TraceHistory) -> Result) -> Result {
        let (result, recorders) = history.withLock { history in
            let (recorders, notes) = layers.withRecorders { $0.takeFinished() }
            for (index, recorder) in recorders.enumerated() {
                let note = notes.isEmpty ? RecorderPool.Note() : notes[index]
                recorder.replay(into: &history, keepsTree: note.keepsTree, staleDependencies: note.stale)
            }
            return (body(&history), recorders)
        }
        reuse(recorders)
        return result
    }

    /// Forgets the trace and the counts; registrations used so far stay used, and instance
    /// numbers go on from where they were.
    func clear() {
        let recorders = history.withLock { history in
            let recorders = layers.withRecorders { $0.takeFinished() }.recorders
            for recorder in recorders {
                recorder.forget(into: &history)
            }
            history.roots = []
            history.counts = [:]
            return recorders
        }
        reuse(recorders)
    }

    /// Makes replayed recorders ready for the next resolutions.
    private func reuse(_ recorders: [TraceRecorder]) {
        guard !recorders.isEmpty else { return }
        if !layers.withRecorders({ $0.reuse(recorders) }) {
            for recorder in recorders { recorder.detach() }
        }
    }
}
