/// Uninitialized memory for values on their way out of a factory, taken and given back in
/// stack order as steps nest. Kept by a resolution between calls, so steps allocate nothing.
package struct UnsafeScratchStack {
    /// Room for one value, taken with `push(size:alignment:)` for a type of that layout:
    /// `initialize(to:)` and then `move(as:)` must use that type, once each, and slots are given
    /// back in the order they were taken (all checked in debug builds).
    package struct Slot {
        fileprivate let pointer: UnsafeMutableRawPointer
        /// Where the stack's top was before this slot; `nil` for a slot allocated on its own.
        fileprivate let previousTop: Int?
        #if DEBUG
        fileprivate let size: Int
        /// Where the stack's top was after this slot was taken.
        fileprivate let end: Int
        /// What the slot holds, in debug builds only: the type it was initialized with, and
        /// whether its value was moved out.
        fileprivate final class Use {
            var stored: ObjectIdentifier?
            var moved = false
        }
        fileprivate let use = Use()
        #endif

        fileprivate init(pointer: UnsafeMutableRawPointer, previousTop: Int?, size: Int, end: Int) {
            self.pointer = pointer
            self.previousTop = previousTop
            #if DEBUG
            self.size = size
            self.end = end
            #endif
        }

        /// Moves `value` into the slot.
        @inline(__always)
        package func initialize<Value>(to value: consuming Value) {
            #if DEBUG
            precondition(MemoryLayout<Value>.size <= size, "a \(Value.self) does not fit its scratch slot")
            precondition(use.stored == nil, "a scratch slot was initialized twice")
            use.stored = ObjectIdentifier(Value.self)
            #endif
            pointer.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        }

        /// Moves the value `initialize(to:)` put in the slot out of it.
        @inline(__always)
        func move<Value>(as type: Value.Type) -> Value {
            #if DEBUG
            precondition(use.stored == ObjectIdentifier(Value.self), "a scratch slot was read as another type, or empty")
            precondition(!use.moved, "a scratch slot's value was moved out twice")
            use.moved = true
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
                return Slot(pointer: base + start, previousTop: previous, size: size, end: top)
            }
        }
        return pushSlowly(size: size, alignment: alignment)
    }

    @inline(__always)
    mutating func pop(_ slot: Slot) {
        #if DEBUG
        precondition(slot.end == top, "scratch slots given back out of order")
        #endif
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
        return Slot(pointer: pointer, previousTop: nil, size: size, end: top)
    }

    mutating func deallocate() {
        base?.deallocate()
        base = nil
        top = 0
    }
}
