/// A resolved instance kept by a scope, in one allocation. Not generic, so reading it back
/// needs no generic metadata on the hot path; read it as the `Service` type it was stored under.
///
/// Invariant: the header is the type the value was stored as, and the elements hold one
/// initialized value of it, aligned; `value(as:)` must be asked for that same type (checked in
/// debug builds). A container's kept-instance slot holds one of these for every `.container` and
/// custom entry, and a `WeakInstanceBox` for `.weak`: an entry's lifetime never changes
/// (`.scope()` makes a new entry with an empty slot), so the fast path may read a `.container`
/// slot without a dynamic cast (`keptValue(_:as:)`).
package final class UnsafeInstanceBox: ManagedBuffer<any Any.Type, UInt8> {
    package static func make<Service>(_ value: Service) -> UnsafeInstanceBox {
        let layout = MemoryLayout<Service>.self
        let buffer = create(minimumCapacity: layout.size + layout.alignment) { _ in Service.self }
        let box = unsafeDowncast(buffer, to: UnsafeInstanceBox.self)
        box.withUnsafeMutablePointerToElements { elements in
            UnsafeInstanceBox.storage(elements, for: Service.self).initialize(to: value)
        }
        return box
    }

    deinit {
        withUnsafeMutablePointers { type, elements in
            Self.destroy(type.pointee, at: elements)
        }
    }

    /// The value, which must have been stored as a `Service` (checked in debug builds).
    package func value<Service>(as serviceType: Service.Type) -> Service {
        assert(header == Service.self, "an instance kept as \(header) was read as \(Service.self)")
        return withUnsafeMutablePointerToElements { UnsafeInstanceBox.storage($0, for: Service.self).pointee }
    }

    private static func storage<Service>(_ elements: UnsafeMutablePointer<UInt8>, for: Service.Type) -> UnsafeMutablePointer<Service> {
        UnsafeMutableRawPointer(elements).alignedUp(for: Service.self).assumingMemoryBound(to: Service.self)
    }

    private static func destroy<Service>(_ type: Service.Type, at elements: UnsafeMutablePointer<UInt8>) {
        storage(elements, for: Service.self).deinitialize(count: 1)
    }
}


extension UnsafeInstanceBox {
    /// The value as `Any`, for code that does not know the type it was stored as.
    package var anyValue: Any {
        func value<Value>(of type: Value.Type) -> Any { self.value(as: Value.self) }
        return value(of: header)
    }

    /// Reads the value of a box known to be an `UnsafeInstanceBox` without a dynamic cast: the
    /// kept instance of a `.container` or custom entry (see the invariant above).
    package static func keptValue<Service>(_ box: AnyObject, as serviceType: Service.Type) -> Service {
        assert(box is UnsafeInstanceBox, "a kept instance of a .container or custom entry must be an UnsafeInstanceBox")
        return unsafeDowncast(box, to: UnsafeInstanceBox.self).value(as: Service.self)
    }
}
