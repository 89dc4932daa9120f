/// Uninitialized memory for values on their way out of a factory, taken and given back in
/// stack order as steps nest. Kept by a resolution between calls, so steps allocate nothing.
package struct UnsafeScratchStack {
    /// Room for one value, taken with `push(size:alignment:)` for a type of that layout:
    /// `initialize(to:)` and `move(as:)` must use that type (checked in debug builds), once each.
    package struct Slot {
        fileprivate let pointer: UnsafeMutableRawPointer
        /// Where the stack's top was before this slot; `nil` for a slot allocated on its own.
        fileprivate let previousTop: Int?
        #if DEBUG
        fileprivate let size: Int
        #endif

        fileprivate init(pointer: UnsafeMutableRawPointer, previousTop: Int?, size: Int) {
            self.pointer = pointer
            self.previousTop = previousTop
            #if DEBUG
            self.size = size
            #endif
        }

        /// Moves `value` into the slot.
        @inline(__always)
        package func initialize<Value>(to value: consuming Value) {
            #if DEBUG
            precondition(MemoryLayout<Value>.size <= size, "a \(Value.self) does not fit its scratch slot")
            #endif
            pointer.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        }

        /// Moves the value `initialize(to:)` put in the slot out of it.
        @inline(__always)
        func move<Value>(as type: Value.Type) -> Value {
            #if DEBUG
            precondition(MemoryLayout<Value>.size <= size, "a \(Value.self) does not fit its scratch slot")
            #endif
            return pointer.assumingMemoryBound(to: Value.self).move()
        }
    }

    private var base: UnsafeMutableRawPointer?
    private var top = 0
    private static let capacity = 2048
    private static let alignment = 16

    @inline(__always)
    mutating func push(size: Int, alignment: Int) -> Slot {
        if let base, alignment <= Self.alignment {
            let start = (top + alignment - 1) & ~(alignment - 1)
            if start + size <= Self.capacity {
                let previous = top
                top = start + size
                return Slot(pointer: base + start, previousTop: previous, size: size)
            }
        }
        return pushSlowly(size: size, alignment: alignment)
    }

    @inline(__always)
    mutating func pop(_ slot: Slot) {
        guard let previous = slot.previousTop else {
            slot.pointer.deallocate()
            return
        }
        top = previous
    }

    @inline(never)
    private mutating func pushSlowly(size: Int, alignment: Int) -> Slot {
        if base == nil, alignment <= Self.alignment, size <= Self.capacity {
            base = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity, alignment: Self.alignment)
            return push(size: size, alignment: alignment)
        }
        // Deep nesting or a large value: memory of its own.
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: max(alignment, 1))
        return Slot(pointer: pointer, previousTop: nil, size: size)
    }

    mutating func deallocate() {
        base?.deallocate()
        base = nil
        top = 0
    }
}
