/// The `.graph` instances of one resolution (and kept instances while their hooks run), inline in
/// memory kept between calls: keeping one rarely allocates, reading one back casts nothing.
///
/// Invariant: `records` holds `count` initialized records, each pointing at an initialized
/// value of its `type` in memory this owns, until `removeAll`; values never move (a full block
/// is retired, not grown), so they need not be bitwise movable; a value is read back only as the
/// type it was kept as, at an index below `count` (both checked in every build: an integer and
/// a metatype comparison).
struct UnsafeGraphInstances {
    private typealias Record = (id: Int, value: UnsafeMutableRawPointer, type: any Any.Type)

    private var records: UnsafeMutablePointer<Record>?
    private var count = 0, capacity = 0
    /// The block values are placed in now, and how much of it is used.
    private var current: UnsafeMutableRawPointer?, used = 0
    /// Full blocks, freed by `removeAll`.
    private var retired: [UnsafeMutableRawPointer] = []
    private static let blockSize = 1024

    var isEmpty: Bool { count == 0 }
    private var all: UnsafeMutableBufferPointer<Record> { UnsafeMutableBufferPointer(start: records, count: count) }
    func index(of id: Int) -> Int? { all.firstIndex { $0.id == id } }

    func value<Service>(at index: Int, as serviceType: Service.Type) -> Service {
        precondition(index < count && all[index].type == Service.self, "a .graph instance read as another type")
        return all[index].value.assumingMemoryBound(to: Service.self).pointee
    }

    mutating func keep<Service>(_ instance: Service, for id: Int) {
        let pointer = allocate(size: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        pointer.initializeMemory(as: Service.self, to: instance)
        if count == capacity { growRecords() }
        (records.unsafelyUnwrapped + count).initialize(to: (id, pointer, Service.self))
        count += 1
    }

    /// Makes the instance kept for `id` invisible, as if never kept; it is destroyed with the rest.
    mutating func forget(_ id: Int) {
        if let index = index(of: id) { all[index].id = Int.min }
    }

    /// Where each instance kept (and not forgotten) is, its entry's id and its type.
    var kept: [(index: Int, id: Int, type: any Any.Type)] {
        all.indices.compactMap { all[$0].id == Int.min ? nil : ($0, all[$0].id, all[$0].type) }
    }

    /// Destroys every instance, keeping the current block for the next call.
    mutating func removeAll() {
        for record in all { Self.destroy(record.type, at: record.value) }
        for block in retired { block.deallocate() }
        retired.removeAll(keepingCapacity: true)
        (count, used) = (0, 0)
    }

    mutating func deallocate() {  // the owner's last use
        removeAll()
        records?.deallocate()
        current?.deallocate()
    }

    /// Room for a value in the current block, or in a new one (as large as the value, if larger).
    private mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let start = (used + alignment - 1) & ~(alignment - 1)
        if let current, start + size <= Self.blockSize {
            used = start + size
            return current + start
        }
        if let current { retired.append(current) }
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: max(size, Self.blockSize), alignment: max(alignment, 16))
        (current, used) = (block, size)
        return block
    }

    /// Moves the records to memory twice as large (16 at first), freeing the old.
    private mutating func growRecords() {
        capacity = max(16, capacity * 2)
        let grown = UnsafeMutablePointer<Record>.allocate(capacity: capacity)
        if let records {
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
        }
        records = grown
    }

    private static func destroy<Value>(_ type: Value.Type, at pointer: UnsafeMutableRawPointer) {
        pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}
