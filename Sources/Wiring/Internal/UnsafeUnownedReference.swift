/// A reference to an object that something else keeps alive, held without reference counting:
/// copying or reading it costs no atomic operations on a resolution's hot path. Invariant: the
/// object outlives every use of the reference. Whoever makes one says, where it is stored, what
/// keeps the object alive (the caller of the top-level resolve, the resolution's own strong
/// reference, the registry an entry belongs to). Debug builds keep a counted unowned reference
/// beside it and stop on any use after the object is gone; so do the two existential forms below (a
/// class-bound existential cannot be the generic argument).
@usableFromInline package struct UnsafeUnownedReference<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>
    @usableFromInline let living: LivenessCheck

    package init(_ object: borrowing Object) {
        (unmanaged, living) = (.passUnretained(object), LivenessCheck(copy object))
    }

    /// The object, retained by the caller for as long as it keeps it.
    package var object: Object { withObject { $0 } }

    /// Runs `body` with the object, borrowed: no reference counting.
    @inlinable @inline(__always)
    package func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        living.check()
        return try unmanaged._withUnsafeGuaranteedRef(body)
    }
}

/// An instance cache that something else keeps alive, held without reference counting.
package struct UnsafeUnownedCache {
    private unowned(unsafe) let cache: any InstanceCache
    private let living: LivenessCheck

    package init(_ cache: __shared any InstanceCache) { (self.cache, living) = (cache, LivenessCheck(cache)) }

    /// The cache, retained by the caller for as long as it keeps it.
    package var value: any InstanceCache {
        living.check()
        return cache
    }
}

/// The source of a running call, held without reference counting.
package struct UnsafeUnownedSource {
    private unowned(unsafe) let source: any ResolutionSource
    private let living: LivenessCheck

    package init(_ source: __shared any ResolutionSource) { (self.source, living) = (source, LivenessCheck(source)) }

    /// The source, retained by the caller for as long as it keeps it.
    package var value: any ResolutionSource {
        living.check()
        return source
    }
}

/// The counted unowned reference debug builds keep beside an unretained one: reading it after
/// the object was freed traps. (A weak one gave objects side tables LeakSanitizer saw leak.)
@usableFromInline struct LivenessCheck {
    #if DEBUG
    @usableFromInline unowned let object: AnyObject
    init(_ object: AnyObject) { self.object = object }
    @inlinable func check() { withExtendedLifetime(object) {} }
    #else
    init(_ object: AnyObject) {}
    @inlinable func check() {}
    #endif
}
