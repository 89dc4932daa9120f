import Wiring

/// Records one top-level resolution through a test container as a trace tree.
final class TraceRecorder: ResolutionObserver, @unchecked Sendable {
    // Used by one resolution, which runs on one thread at a time.
    private var open: [ResolutionTrace.Node] = []
    private unowned let test: TestContainer

    init(test: TestContainer) {
        self.test = test
    }

    func willResolve(_ key: ServiceKey, found: Lookup, path: [ServiceKey]) {
        open.append(ResolutionTrace.Node(
            key: key, scope: found.entry.scope, source: test.source(of: found), outcome: .created,
            entryID: found.entry.id))
        test.noteResolving(key, entryID: found.entry.id)
    }

    func didResolve(_ key: ServiceKey, found: Lookup, instance: Any, outcome: ResolutionOutcome) {
        guard var node = open.popLast() else { return }
        switch outcome {
        case .created:
            node.outcome = .created
            node.instance = test.number(instance, isNew: true)
            if found.entry.scope.isStored {
                test.remember(dependenciesOf: found.entry, from: node)
            }
        case .cached:
            node.outcome = .cached
            node.instance = test.number(instance, isNew: false)
            node.warnings = test.staleWarnings(for: found.entry, key: key, instance: node.instance)
        case .sharedInGraph:
            node.outcome = .sharedInGraph
            node.instance = test.number(instance, isNew: false)
        }
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

    private func isMissing(_ error: any Error, _ key: ServiceKey) -> Bool {
        guard let error = error as? ResolutionError, case .notRegistered = error.reason else { return false }
        return error.key == key && error.path.count == open.count + 1
    }

    private func finish(_ node: ResolutionTrace.Node) {
        if open.isEmpty {
            test.record(node)
        } else {
            open[open.count - 1].children.append(node)
        }
    }
}

extension Scope {
    /// Whether instances outlive one resolution.
    var isStored: Bool {
        self != .transient && self != .graph
    }
}
