/// The `.graph` instances of one resolution, stored inline in memory the resolution keeps between
/// calls: keeping an instance allocates nothing once the resolution has been used a few times.
///
/// Values never move once stored (a full block is kept and a new one started), so they need
/// not be bitwise movable.
struct GraphInstances {
    private var ids: ContiguousArray<Int> = []
    private var values: ContiguousArray<UnsafeMutableRawPointer> = []
    private var types: ContiguousArray<any Any.Type> = []
    /// Where the current block's free space starts and ends.
    private var next: UnsafeMutableRawPointer?
    private var end: UnsafeMutableRawPointer?
    /// The block values are placed in now, kept from one resolution to the next.
    private var current: UnsafeMutableRawPointer?
    /// Full blocks and blocks of single large values, freed by `removeAll`.
    private var retired: ContiguousArray<UnsafeMutableRawPointer> = []

    private static let blockSize = 1024
    private static let blockAlignment = 16

    var isEmpty: Bool { ids.isEmpty }

    @inline(__always)
    func index(of id: Int) -> Int? {
        ids.withUnsafeBufferPointer { ids in
            for index in ids.indices where ids[index] == id { return index }
            return nil
        }
    }

    @inline(__always)
    func value<Service>(at index: Int, as serviceType: Service.Type) -> Service {
        values[index].assumingMemoryBound(to: Service.self).pointee
    }

    mutating func keep<Service>(_ instance: Service, for id: Int) {
        let pointer = allocate(size: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        pointer.initializeMemory(as: Service.self, to: instance)
        ids.append(id)
        values.append(pointer)
        types.append(Service.self)
    }

    /// Destroys every instance, keeping the current block for the next resolution.
    mutating func removeAll() {
        for (pointer, type) in zip(values, types) {
            Self.destroy(type, at: pointer)
        }
        ids.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        for block in retired { block.deallocate() }
        retired.removeAll(keepingCapacity: true)
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
    }

    private mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let next, let end, alignment <= Self.blockAlignment {
            let start = next.alignedUp(toMultipleOf: alignment)
            if start + size <= end {
                self.next = start + size
                return start
            }
        }
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
