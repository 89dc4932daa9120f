import Wiring

/// How a service's instances turned out to be shared when resolved in the ways each scope
/// tells apart, observed in fresh ``ScopeProbe``s.
struct ScopeBehaviour {
    /// Resolved twice inside one top-level resolve: the same instance both times?
    let sharedWithinResolve: Bool
    /// Resolved by two top-level resolves, the first instance still held: the same instance?
    let sharedAcrossResolves: Bool
    /// Resolved from a child container: the parent's instance?
    let sharedWithChild: Bool
    /// Still alive once the check let go of every instance: kept by the container?
    let keptWhenReleased: Bool
    /// A new instance after `resetScope(resetScope)`; `nil` unless the check reset a scope.
    let renewedAfterReset: Bool?
    /// The custom scope the check reset: the expected one, or, when `.container` was expected,
    /// the one the service is registered in.
    let resetScope: Scope?

    /// The scope these observations match, and what that means, for failure messages.
    var summary: String {
        if !sharedAcrossResolves {
            return sharedWithinResolve
                ? ".graph: one instance per resolve, shared within it"
                : ".transient: a new instance every time"
        }
        if !keptWhenReleased { return ".weak: shared while held, released when nobody holds it" }
        if let resetScope, let renewedAfterReset {
            return renewedAfterReset
                ? "\(resetScope): kept by the container until resetScope(\(resetScope))"
                : ".container: kept by the container, not dropped by that reset"
        }
        return ".container or a custom scope: kept by the container"
    }

    /// The first way in which this differs from what `scope` promises, in a sentence that says
    /// what was expected and what happened; `nil` when it behaves as `scope` does. What a scope
    /// promises is its lifetime's `Scope.Policy`, asked here as the engine asks it; a custom
    /// scope is also renewed by resetting it (when the observation reset it).
    func mismatch(with scope: Scope, service: String) -> String? {
        let policy = scope.lifetime.policy
        guard policy.keepsInstances else {
            // Made per resolve: shared within it (`.graph`) or not at all (`.transient`).
            let acrossResolves = sharedAcrossResolves
                ? "expected \(service) to be a new instance \(policy.sharedWithinResolve ? "for each resolve" : "on every resolve") (\(scope)), but two resolves gave the same instance"
                : nil
            if policy.sharedWithinResolve {
                if !sharedWithinResolve {
                    return "expected \(service) to be shared within one resolve (\(scope)), but resolving it twice inside one resolve gave two instances"
                }
                return acrossResolves
            }
            if let acrossResolves { return acrossResolves }
            if sharedWithinResolve {
                return "expected \(service) to be a new instance every time (\(scope)), but resolving it twice inside one resolve gave the same instance"
            }
            return nil
        }
        if !sharedAcrossResolves {
            if policy.holdsWeakly {
                return "expected \(service) to be shared while it is held (\(scope)), but two resolves gave different instances while the first was still held"
            }
            let until = renewedAfterReset == nil ? "" : " until the scope is reset"
            return "expected \(service) to be shared across resolves\(until) (\(scope)), but two resolves gave different instances"
        }
        if policy.holdsWeakly {
            guard keptWhenReleased else { return nil }
            return "expected \(service) to be released when the last holder lets go (\(scope)), but it is still alive: the container keeps it"
        }
        if !sharedWithChild {
            return "expected a child container to share the parent's \(service) (\(scope)), but it gave another instance"
        }
        if !keptWhenReleased {
            return "expected the container to keep \(service) when nothing else holds it (\(scope)), but it was released"
        }
        if let resetScope, let renewedAfterReset {
            if resetScope == scope, !renewedAfterReset {
                return "expected a new \(service) after resetScope(\(scope)), but the next resolve gave the same instance"
            }
            if resetScope != scope, renewedAfterReset {
                return "expected the container to keep \(service) across resetScope(\(resetScope)) (\(scope)), but the reset "
                    + "dropped it: it is kept in \(resetScope)"
            }
        }
        return nil
    }

    /// Observes how `key` is shared, resolving it from fresh probes over `source`.
    /// - Parameter resetting: A custom scope to reset between two resolves, if one is expected.
    /// - Returns: The behaviour, or what the instance is when it is not a class (and so has no identity).
    static func observe<Service>(
        _ request: ScopeRequest<Service>, in source: any ResolutionSource, resetting: Scope?
    ) throws -> Observation {
        let withinResolve = ScopeProbe(wrapping: source)
        let (first, second) = try withinResolve.resolveTwiceInOneResolution(request.resolve)
        guard let firstObject = object(first), let secondObject = object(second) else {
            return .valueInstance(type: type(of: first as Any), kind: valueKind(first))
        }
        let sharedWithinResolve = firstObject === secondObject

        // The probe outlives the resolves, so whether the instance outlives them says whether
        // the probe (the container) keeps it.
        let probe = ScopeProbe(wrapping: source)
        let (sharedAcrossResolves, sharedWithChild, released) = try resolveAcross(request, in: probe)
        let keptWhenReleased = released.object != nil

        var renewedAfterReset: Bool?
        if let resetting {
            let probe = ScopeProbe(wrapping: source)
            let before = object(try request.resolve(probe))
            probe.resetScope(resetting)
            let after = object(try request.resolve(probe))
            renewedAfterReset = before !== after
        }
        return .behaviour(ScopeBehaviour(
            sharedWithinResolve: sharedWithinResolve, sharedAcrossResolves: sharedAcrossResolves,
            sharedWithChild: sharedWithChild, keptWhenReleased: keptWhenReleased, renewedAfterReset: renewedAfterReset,
            resetScope: resetting))
    }

    /// Resolves twice from `probe` (holding the first) and once from a child of it. Every
    /// strong reference it took is gone when it returns: only `probe` can still hold one.
    @inline(never)
    private static func resolveAcross<Service>(
        _ request: ScopeRequest<Service>, in probe: ScopeProbe
    ) throws -> (shared: Bool, sharedWithChild: Bool, first: WeakReference) {
        let first = object(try request.resolve(probe))
        let second = object(try request.resolve(probe))
        let fromChild = object(try request.resolve(ScopeProbe(childOf: probe)))
        return (first === second, first === fromChild, WeakReference(first))
    }

    /// The instance as an object, if it is one: only a class instance has an identity to compare.
    /// The scope to reset while observing whether `key` in `source` behaves as `scope`: a custom
    /// one, whose promise is a new instance after a reset; for `.container`, the custom scope
    /// `key` is registered in, whose reset a `.container` instance survives.
    static func resetting(_ scope: Scope, for key: ServiceKey, in source: any ResolutionSource) -> Scope? {
        let reset = scope == .container ? source.lookup(key)?.entry.scope : scope
        return reset.flatMap { [Scope.transient, .graph, .container, .weak].contains($0) ? nil : $0 }
    }

    /// Observes, with `await`, how `request`'s service is shared: as ``observe(_:in:resetting:)``
    /// does, every resolve awaited, "twice inside one resolve" inside one async factory.
    nonisolated(nonsending)
    static func observe<Service>(
        _ request: AsyncScopeRequest<Service>, in source: any ResolutionSource, resetting: Scope?
    ) async throws -> Observation {
        let withinResolve = ScopeProbe(wrapping: source)
        let (first, second) = try await withinResolve.resolveTwiceInOneAsyncResolution(request.resolve)
        guard let firstObject = object(first.value), let secondObject = object(second.value) else {
            return .valueInstance(type: type(of: first.value as Any), kind: valueKind(first.value))
        }
        let sharedWithinResolve = firstObject === secondObject

        let probe = ScopeProbe(wrapping: source)
        let (sharedAcrossResolves, sharedWithChild, released) = try await resolveAcross(request, in: probe)
        let keptWhenReleased = released.object != nil

        var renewedAfterReset: Bool?
        if let resetting {
            let probe = ScopeProbe(wrapping: source)
            let before = object(try await request.resolve(AsyncResolver(source: probe)).value)
            probe.resetScope(resetting)
            let after = object(try await request.resolve(AsyncResolver(source: probe)).value)
            renewedAfterReset = before !== after
        }
        return .behaviour(ScopeBehaviour(
            sharedWithinResolve: sharedWithinResolve, sharedAcrossResolves: sharedAcrossResolves,
            sharedWithChild: sharedWithChild, keptWhenReleased: keptWhenReleased, renewedAfterReset: renewedAfterReset,
            resetScope: resetting))
    }

    /// Resolves with `await` twice in `probe` and once in a child of it; the instances are
    /// released when it returns, but for what the probe keeps.
    @inline(never)
    nonisolated(nonsending)
    private static func resolveAcross<Service>(
        _ request: AsyncScopeRequest<Service>, in probe: ScopeProbe
    ) async throws -> (shared: Bool, sharedWithChild: Bool, first: WeakReference) {
        let first = object(try await request.resolve(AsyncResolver(source: probe)).value)
        let second = object(try await request.resolve(AsyncResolver(source: probe)).value)
        let fromChild = object(try await request.resolve(AsyncResolver(source: ScopeProbe(childOf: probe))).value)
        return (first === second, first === fromChild, WeakReference(first))
    }

    private static func object<Service>(_ instance: Service) -> AnyObject? {
        let value = instance as Any
        guard type(of: value) is AnyClass else { return nil }
        return value as AnyObject
    }

    /// `struct`, `enum`, `tuple`…: what kind of value an instance is, for a failure message.
    private static func valueKind(_ value: Any) -> String {
        switch Mirror(reflecting: value).displayStyle {
        case .struct: "struct"
        case .enum: "enum"
        case .tuple: "tuple"
        case .optional: "optional"
        case .collection, .dictionary, .set: "collection"
        default: "value"
        }
    }

    /// What observing a service showed.
    enum Observation {
        /// How its instances are shared.
        case behaviour(ScopeBehaviour)
        /// Nothing: its instances are values of this type and kind, which have no identity.
        case valueInstance(type: any Any.Type, kind: String)
    }
}

/// Holds an object without keeping it alive.
final class WeakReference {
    weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }
}

/// What `assertScope` resolves, the same way every time: its key (for messages) and the call,
/// with the runtime arguments it was given.
struct ScopeRequest<Service> {
    let key: ServiceKey
    let resolve: (any Resolver) throws -> Service
}

/// What ``ScopeBehaviour/observe(_:in:resetting:)`` resolves with `await`: a key and how to
/// resolve it from an async resolver (the arguments bound in).
struct AsyncScopeRequest<Service>: Sendable {
    let key: ServiceKey
    let resolve: @Sendable (AsyncResolver) async throws -> UncheckedSendable<Service>
}
