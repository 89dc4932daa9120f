/// The `.graph` objects of one top-level resolve, for the `Provider`s and `Lazy`s it injected:
/// used after the resolve returned, they start from these, so they give the graph's own
/// instances, as long as those are alive (held weakly: they hold the lazies that hold this).
package final class SharedGraph: @unchecked Sendable {
    /// One `.graph` object, and how to put it back into a resolution's graph as its type.
    struct Member {
        let entryID: Int
        weak var object: AnyObject?
        let keep: (Resolution, AnyObject) -> Void
    }

    private let members = LockedState<[Member]>([])

    /// Takes the objects of the resolution that made this, as it ends.
    func fill(with made: [Member]) {
        members.withLock { $0 = made }
    }

    /// Puts the objects still alive into `resolution`'s graph, which is starting.
    func seed(_ resolution: Resolution) {
        let alive = members.withLock { members in members.compactMap { member in member.object.map { (member, $0) } } }
        for (member, object) in alive where resolution.state.graph.index(of: member.entryID) == nil {
            member.keep(resolution, object)
        }
    }
}

extension Resolution {
    /// The handle the `Provider`s and `Lazy`s this call injects keep of its `.graph` objects,
    /// made on first request; filled when the call ends.
    func sharedGraph() -> SharedGraph {
        if let shared = state.sharedGraphHandle { return shared }
        let shared = SharedGraph()
        state.sharedGraphHandle = shared
        return shared
    }

    /// Gives the `.graph` objects of the call that is ending to the lazies and providers it made.
    func fillSharedGraph() {
        guard let shared = state.sharedGraphHandle else { return }
        state.sharedGraphHandle = nil
        shared.fill(with: state.graph.kept.compactMap { kept -> SharedGraph.Member? in
            let type: any Any.Type = kept.type
            return member(at: kept.index, id: kept.id, as: type)
        })
    }

    /// The object kept at `index` of the `.graph` instances, with how to keep it again in
    /// another resolution as its own type; `nil` for a value.
    private func member<Service>(at index: Int, id: Int, as type: Service.Type) -> SharedGraph.Member? {
        let value = state.graph.value(at: index, as: Service.self) as Any
        guard Swift.type(of: value) is AnyClass else { return nil }
        return SharedGraph.Member(entryID: id, object: value as AnyObject) { resolution, object in
            guard let instance = object as? Service else { return }
            resolution.state.graph.keep(instance, for: id)
        }
    }
}

extension ResolutionSource {
    /// Resolves `key` in a new top-level call that starts with `graph`'s objects.
    package func resolveTopLevel<Service>(_ key: ServiceKey, as serviceType: Service.Type, sharing graph: SharedGraph) throws -> Service {
        try Resolution.run(from: self, sharing: graph) { try $0.resolve(key, as: serviceType, found: nil) }
    }
}
