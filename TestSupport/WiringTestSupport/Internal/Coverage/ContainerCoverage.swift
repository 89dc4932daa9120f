import Wiring

/// What one test container adds to the wiring coverage: the registrations of its base, its
/// overrides and its fakes, and the tests that resolved each. The ``CoverageRegistry`` holds it
/// while the test container lives (not the test container itself: a weak reference to it would
/// slow every retain of it down), and takes its final record when the test container goes.
final class ContainerCoverage: Sendable {
    /// The layers of the test container this covers.
    let layers: LayerStack
    private let traces: TraceStore
    /// The tests that checked each key with `verifyWiring` or `wiringManifest`: built, but in a
    /// sandbox no trace records. Named when the record is taken: a test XCTest started before
    /// the helpers were installed learns its name only later.
    private let verified = LockedState<[ServiceKey: [TestRun]]>([:])

    /// The coverage of the test container whose layers and trace store these are.
    init(layers: LayerStack, traces: TraceStore) {
        self.layers = layers
        self.traces = traces
    }

    /// The record as it is now: every resolution so far, every registration of the base and
    /// its parents, the overrides of the layers pushed now and of the layers gone, and the fakes.
    func record() -> CoverageRecord {
        completed(traces.withHistory { $0.coverage })
    }

    /// The record as the test container goes away, when its trace will never be read: takes
    /// only what coverage needs from the resolutions nobody replayed.
    func finalRecord() -> CoverageRecord {
        completed(traces.takeCoverage())
    }

    /// Notes that `test` checked `keys` in a whole-graph check.
    func noteVerified(_ keys: [ServiceKey], by test: TestRun) {
        verified.withLock { verified in
            for key in keys where !(verified[key]?.contains { $0 === test } ?? false) {
                verified[key, default: []].append(test)
            }
        }
    }

    /// `record`, with the registrations that exist now, resolved or not.
    private func completed(_ record: CoverageRecord) -> CoverageRecord {
        var record = record
        let fakes = layers.fakes.registry
        let verified = verified.withLock { $0 }.mapValues { Set($0.map(\.name)) }
        for found in layers.base.visibleRegistrations(includingParents: true) {
            record.note(
                found.entry, as: .registration, hasFake: MutatedRegistration.canFake(found.entry, fakes: fakes),
                verifiedBy: verified[found.entry.key] ?? [])
        }
        for layer in layers.ownLayers {
            // What hides a replaced module's registration is no double a test made.
            for found in layer.overrides.visibleRegistrations(includingParents: false) where !found.entry.options.isRefusal {
                record.note(found.entry, as: .override)
            }
        }
        for entry in layers.fakes.entries {
            record.note(entry, as: .fake)
        }
        return record
    }
}
