import Wiring

/// Follows one top-level resolution through a test container, as the core tells its observer,
/// and keeps its steps in a ``StepLog``, and nothing more: the trace store builds the trace tree, the counts and the
/// instance numbers from it only when something reads them (see `TraceReplay.swift`). Keeping
/// a step costs an append; building a tree node, hashing its key and numbering its instance on
/// every step made recording cost many times the resolution it records.
///
/// Recorders are kept and reused by their ``TraceStore``, so recording allocates nothing once
/// warm. The resolution holds its recorder, as its observer, until its call ends; the layers it
/// began with (a ``LayerSnapshot``) keep its instances.
final class TraceRecorder: ResolutionObserver, Sendable {
    /// The steps of the resolution, in the order they began. Recorded by the resolution's
    /// thread, then read by the store under the layer stack's lock, which also hands the
    /// recorder on to the next resolution.
    let log = StepLog()
    /// The layers the resolutions look up in and keep instances in. A recorder serves one
    /// snapshot: once the layers change, the store makes new recorders.
    let snapshot: LayerSnapshot
    /// The test whose resolutions this recorder records, if one is known: a recorder serves one
    /// test, so that what it used first is what that test used (see wiring coverage).
    let test: TestRun?
    /// Where the recorder goes back when its resolution ends. Held strongly (an unowned
    /// reference costs an atomic operation on each use); the store holds its recorders in turn,
    /// until its test container goes away and ``TraceStore/close()`` lets go of them.
    private let store: TraceStore
    /// The steps of the resolution that found their kept instance stale and made it again, and
    /// why, by step; written by the resolution's thread, taken when it ends.

    /// A recorder for resolutions through `store`'s test container that begin with `snapshot`,
    /// made by `test`.
    init(store: TraceStore, snapshot: LayerSnapshot, test: TestRun?) {
        self.store = store
        self.snapshot = snapshot
        self.test = test
    }

    /// Whether this recorder may record a resolution that begins with `snapshot`, made by
    /// `test`: it serves only the layers and the test it was made for, and is replaced once it
    /// keeps too many registrations (a test container whose base keeps changing would otherwise
    /// keep every registration it had).
    func serves(_ snapshot: LayerSnapshot, test: TestRun?) -> Bool {
        self.snapshot === snapshot && self.test === test && log.keptCount <= Self.keptRegistrationLimit
    }

    /// How many registrations a recorder may keep before it is replaced.
    private static let keptRegistrationLimit = 4096

    /// Drops the steps of its last resolution, if the store forgot them without emptying the
    /// log (see `RecorderPool.takeFinishedToForget()`), before the recorder is used again; its
    /// steps keep the objects they make when `collectingMadeObjects`.
    func emptyLog(collectingMadeObjects: Bool) {
        log.removeAll(collectingMadeObjects: collectingMadeObjects)
    }

    /// The steps that made a kept instance again, and why; the resolution has ended.
    func takeRemade() -> [Int: LayerSnapshot.StaleInstance] {
        log.takeRemade()
    }

    /// What a resolution from `source` that this recorder follows resolves in: the snapshot's
    /// registry, looked up first, the snapshot keeping its instances, and this recorder
    /// observing its steps.
    func environment(for source: any ResolutionSource) -> ResolutionEnvironment {
        ResolutionEnvironment(source: source, registry: snapshot.registry, store: snapshot, observer: self)
    }

    /// Notes that the open step makes its instance again: the one its layers keep is `stale`.
    /// The snapshot tells it, finding that instance for the step.
    func noteRemade(_ stale: LayerSnapshot.StaleInstance) {
        log.noteRemade(stale)
    }

    /// Moves what this recorder recorded into `history` (see
    /// ``StepLog/replay(into:remade:keepsTree:snapshot:)``), leaving it ready for its
    /// next resolution.
    /// - Parameters:
    ///   - keepsTree: Whether the steps go into the trace, or only into counts and numbers.
    ///   - remade: The steps that made a kept instance again, and why, by index.
    func replay(into history: inout TraceHistory, keepsTree: Bool, remade: [Int: LayerSnapshot.StaleInstance]) {
        log.replay(into: &history, remade: remade, keepsTree: keepsTree, snapshot: snapshot, test: test)
    }

    /// Moves what this recorder recorded into `history` without keeping a trace, leaving it
    /// ready for its next resolution.
    func forget(into history: inout TraceHistory) {
        log.forget(into: &history, snapshot: snapshot, test: test)
    }

    /// Moves only what coverage needs into `history`: the registrations first used, for its
    /// test. For a test container going away, whose trace nobody will read.
    func noteCoverage(into history: inout TraceHistory) {
        log.noteUsedRegistrations(in: &history, snapshot: snapshot, test: test)
    }

    // MARK: ResolutionObserver

    /// Notes a step that begins, below the open one.
    func willResolve(_ found: Lookup, path: @autoclosure () -> [ServiceKey]) {
        // A fake for a live-only registration is found in the merged registry, like the base's.
        // Noted in the fakes it came from: a layer's are one test's.
        if _slowPath(found.origin == LayerSnapshot.fakeOrigin || snapshot.isFake(found.entry)) {
            (snapshot.layerFakes(owning: found.entry) ?? store.fakes).noteUsed(found.entry.key)
        }
        log.begin(found)
    }

    /// Notes what the open step gave.
    func didResolve<Service>(_ instance: Service, outcome: ResolutionOutcome) {
        log.finish(with: instance, outcome: outcome)
    }

    /// Notes a step that failed.
    func didFail(_ key: ServiceKey, error: any Error) {
        log.fail(key, error: error)
    }

    /// Lets go of the resolution's objects and goes back to the store.
    func resolutionEnded() {
        // A deinit of an object released by `end` may resolve again, but with another recorder:
        // this one goes back to the store only below.
        let (isEmpty, hasStoredScopes, madeOnly, made) = log.endSummarized(inside: snapshot.bound)
        if let made { store.madeObjects.note(made.objects, steps: made.steps) }
        store.finished(self, isEmpty: isEmpty, hasStoredScopes: hasStoredScopes, madeOnly: madeOnly)
    }
}
