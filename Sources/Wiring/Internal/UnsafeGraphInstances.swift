/// The `.graph` instances of one resolution, stored inline in memory the resolution keeps between
/// calls: keeping an instance allocates nothing once the resolution has been used a few times.
///
/// Values never move once stored (a full block is kept and a new one started), so they need
/// not be bitwise movable.
///
/// Invariant: a record's `value` points at an initialized `type` in a block this owns, until
/// `removeAll`; a value is read back only as the type it was kept as (checked in debug builds).
struct UnsafeGraphInstances {
    private struct Record {
        let id: Int
        let value: UnsafeMutableRawPointer
        let type: any Any.Type
    }

    private var records = UnsafeGrowableBuffer<Record>()
    /// Where the current block's free space starts and ends.
    private var next: UnsafeMutableRawPointer?
    private var end: UnsafeMutableRawPointer?
    /// The block values are placed in now, kept from one resolution to the next.
    private var current: UnsafeMutableRawPointer?
    /// Full blocks and blocks of single large values, freed by `removeAll`.
    private var retired: [UnsafeMutableRawPointer] = []

    private static let blockSize = 1024
    private static let blockAlignment = 16

    var isEmpty: Bool { records.isEmpty }

    @inline(__always)
    func index(of id: Int) -> Int? {
        records.withUnsafeElements { records in
            guard let base = records.baseAddress else { return nil }
            for index in 0..<records.count where base[index].id == id { return index }
            return nil
        }
    }

    @inline(__always)
    func value<Service>(at index: Int, as serviceType: Service.Type) -> Service {
        assert(records[index].type == Service.self, "a .graph instance read as another type")
        return records[index].value.assumingMemoryBound(to: Service.self).pointee
    }

    /// The objects kept, each with how to keep it again in another resolution as its own type.
    func members() -> [SharedGraph.Member] {
        (0..<records.count).compactMap { index in
            let record = records[index]
            guard record.id != Int.min else { return nil }
            return Self.member(record, as: record.type)
        }
    }

    private static func member<Service>(_ record: Record, as type: Service.Type) -> SharedGraph.Member? {
        let value = record.value.assumingMemoryBound(to: Service.self).pointee as Any
        guard Swift.type(of: value) is AnyClass else { return nil }
        return SharedGraph.Member(entryID: record.id, object: value as AnyObject) { resolution, object in
            guard let instance = object as? Service else { return }
            resolution.graph.keep(instance, for: record.id)
        }
    }

    /// Makes the instance kept for `id` invisible, as if never kept; it is destroyed with the rest.
    mutating func forget(_ id: Int) {
        guard let index = index(of: id) else { return }
        let record = records[index]
        records[index] = Record(id: Int.min, value: record.value, type: record.type)
    }

    mutating func keep<Service>(_ instance: Service, for id: Int) {
        let pointer = allocate(size: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        pointer.initializeMemory(as: Service.self, to: instance)
        records.append(Record(id: id, value: pointer, type: Service.self))
    }

    /// Destroys every instance, keeping the current block for the next resolution.
    mutating func removeAll() {
        for index in 0..<records.count {
            let record = records[index]
            Self.destroy(record.type, at: record.value)
        }
        records.removeAll()
        if !retired.isEmpty {
            for block in retired { block.deallocate() }
            retired.removeAll(keepingCapacity: true)
        }
        if let current {
            next = current
            end = current + Self.blockSize
        }
    }

    /// Frees the memory; call after `removeAll`.
    mutating func deallocate() {
        for block in retired { block.deallocate() }
        retired.removeAll()
        current?.deallocate()
        current = nil
        next = nil
        end = nil
        records.deallocate()
    }

    @inline(__always)
    private mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let next, let end, alignment <= Self.blockAlignment {
            let start = next.alignedUp(toMultipleOf: alignment)
            if start + size <= end {
                self.next = start + size
                return start
            }
        }
        return allocateBlock(size: size, alignment: alignment)
    }

    @inline(never)
    private mutating func allocateBlock(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        guard size <= Self.blockSize / 4, alignment <= Self.blockAlignment else {
            let block = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: max(alignment, 1))
            retired.append(block)
            return block
        }
        if let current { retired.append(current) }
        let block = UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: Self.blockAlignment)
        current = block
        next = block + size
        end = block + Self.blockSize
        return block
    }

    private static func destroy<Value>(_ type: Value.Type, at pointer: UnsafeMutableRawPointer) {
        pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}
