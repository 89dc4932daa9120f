/// A resolution as the `any Resolver` its factories receive, made once per resolution: forming
/// the existential on every step retains and releases the resolution.
///
/// Invariant: the existential `resolver` holds the resolution, but that reference is not
/// counted (it is given back in `init` and taken again in `deinit`), so a resolution does not
/// keep itself alive, and a resolver that escapes a factory (and is counted when copied) still
/// shows in the resolution's count, which is how an escape is detected. The resolution owns
/// this object and frees it first in its own `deinit`; nothing else may hold it.
final class UnsafeLentResolver {
    /// Read borrowed, through the resolution's unmanaged reference to this object.
    let resolver: any Resolver
    private unowned(unsafe) let resolution: Resolution

    init(_ resolution: Resolution) {
        resolver = resolution
        self.resolution = resolution
        Unmanaged.passUnretained(resolution).release()
    }

    deinit {
        // Freed while the resolution is being freed; destroying `resolver` releases it once
        // more than it was retained here, so give that count back first.
        _ = Unmanaged.passUnretained(resolution).retain()
    }

    /// Runs `body` with the resolver, borrowed: no reference counting.
    func withResolver<Result>(_ body: (any Resolver) throws -> Result) rethrows -> Result {
        assert((resolver as? Resolution) === resolution, "a lent resolver must stand for its own resolution")
        return try body(resolver)
    }
}
