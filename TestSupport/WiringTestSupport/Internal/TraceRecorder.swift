import Wiring

/// Records one top-level resolution through a test container as a trace tree. It also keeps
/// the layers as they were when the resolution began, so each step looks them up without locking.
final class TraceRecorder: ResolutionObserver, @unchecked Sendable {
    // Used by one resolution, which runs on one thread at a time.
    private var open: [ResolutionTrace.Node] = []
    /// The instances of the steps that succeeded, in the order they finished (post-order).
    private var instances: [Any] = []
    private var counts: [ServiceKey: Int] = [:]
    private var used: [Int] = []
    private unowned let test: TestContainer
    let layers: [LayerView]

    init(test: TestContainer, layers: [LayerView]) {
        self.test = test
        self.layers = layers
    }

    func willResolve(_ key: ServiceKey, found: Lookup, path: @autoclosure () -> [ServiceKey]) {
        open.append(ResolutionTrace.Node(
            key: key, scope: found.entry.scope, source: source(of: found), outcome: .created,
            entryID: found.entry.id))
        counts[key, default: 0] += 1
        used.append(found.entry.id)
    }

    func didResolve(_ key: ServiceKey, found: Lookup, instance: Any, outcome: ResolutionOutcome) {
        guard var node = open.popLast() else { return }
        switch outcome {
        case .created: node.outcome = .created
        case .cached: node.outcome = .cached
        case .sharedInGraph: node.outcome = .sharedInGraph
        }
        instances.append(instance)
        finish(node)
    }

    func didFail(_ key: ServiceKey, error: any Error) {
        let identifier = (error as? ResolutionError)?.identifier ?? "factory-failed"
        // A missing registration fails before any step began; anything else ends the open step.
        if var node = open.last, node.key == key, node.outcome == .created, !isMissing(error, key) {
            open.removeLast()
            node.outcome = .failed(identifier)
            finish(node)
        } else {
            finish(ResolutionTrace.Node(key: key, scope: nil, source: .missing, outcome: .failed(identifier), entryID: nil))
        }
    }

    private func source(of found: Lookup) -> ResolutionTrace.Source {
        if found.entry.options.isImplicit { return .implicit }
        if found.origin == TestContainer.fakeOrigin {
            test.fakes.noteUsed(found.entry.key)
            return .fake(found.entry.site)
        }
        if found.origin != 0, let view = layers.first(where: { $0.layer.id == found.origin }) {
            return .override(layer: view.layer.name, site: found.entry.site)
        }
        return .registration(found.entry.site)
    }

    private func isMissing(_ error: any Error, _ key: ServiceKey) -> Bool {
        guard let error = error as? ResolutionError, case .notRegistered = error.reason else { return false }
        return error.key == key && error.path.count == open.count + 1
    }

    private func finish(_ node: ResolutionTrace.Node) {
        guard open.isEmpty else {
            open[open.count - 1].children.append(node)
            return
        }
        test.record(node, instances: instances, counts: counts, used: used)
        instances = []
        counts = [:]
        used = []
    }
}

/// A layer and its overrides as a resolution first saw them.
struct LayerView {
    let layer: OverrideLayer
    let registry: Registry
}
