/// The `.graph` instances of one resolution (and kept instances while their hooks run), by
/// registration id; a resolution keeps the memory from one call to the next.
struct GraphInstances {
    private var records: ContiguousArray<(id: Int, value: Any)> = []

    var isEmpty: Bool { records.isEmpty }

    func index(of id: Int) -> Int? {
        records.firstIndex { $0.id == id }
    }

    /// The instance at `index`, which was kept as a `Service`: the registration with its id
    /// makes `Service`s. (Cast unconditionally: a conditional cast forms a `Service?`, whose
    /// generic metadata is looked up at run time on every call.)
    func value<Service>(at index: Int, as serviceType: Service.Type) -> Service {
        records[index].value as! Service
    }

    mutating func keep<Service>(_ instance: Service, for id: Int) {
        records.append((id, instance))
    }

    /// Makes the instance kept for `id` invisible, as if never kept.
    mutating func forget(_ id: Int) {
        guard let index = index(of: id) else { return }
        records[index].id = Int.min
    }

    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
    }

    /// The objects kept, each with how to keep it again in another resolution as its own type.
    func members() -> [SharedGraph.Member] {
        records.compactMap { record -> SharedGraph.Member? in
            guard record.id != Int.min else { return nil }
            let valueType: any Any.Type = Swift.type(of: record.value)
            return Self.member(id: record.id, value: record.value, as: valueType)
        }
    }

    private static func member<Service>(id: Int, value: Any, as type: Service.Type) -> SharedGraph.Member? {
        guard Swift.type(of: value) is AnyClass else { return nil }
        return SharedGraph.Member(entryID: id, object: value as AnyObject) { resolution, object in
            guard let instance = object as? Service else { return }
            resolution.graph.keep(instance, for: id)
        }
    }
}
