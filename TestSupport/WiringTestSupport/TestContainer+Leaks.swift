import Wiring

/// An object a test container made that is still alive though no scope keeps it, nor anything
/// a scope keeps: something the test or the app let go of holds it still, such as a closure that
/// captures it, or a cycle of strong references.
public struct LeakedInstance: Sendable, CustomStringConvertible {
    /// The key resolved that made it.
    public let key: ServiceKey
    /// Its number in the trace (`#3`), when it is known.
    public let instance: Int?
    /// The keys from the top-level request down to ``key``.
    public let path: [ServiceKey]
    /// The object's class.
    public let typeName: String

    /// `CheckoutViewModel #4 (a CheckoutViewModel), made by Checkout -> CheckoutViewModel, is still alive…`.
    public var description: String {
        let number = instance.map { " #\($0)" } ?? ""
        let article = typeName.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
        return "\(key)\(number) (\(article) \(typeName)), made by \(path.map(\.description).joined(separator: " -> ")), "
            + "is still alive though no scope keeps it"
    }
}

extension TestContainer {
    /// Whether the objects resolutions make are noted for ``leakedInstances()``: on by default
    /// in debug builds, where test suites run; off in release builds, where the weak reference
    /// kept per object would triple the cost of a recorded resolve. Set it before resolving.
    public var isTrackingLeaks: Bool {
        get { traces.tracksMadeObjects }
        set { traces.tracksMadeObjects = newValue }
    }

    /// The objects this test container made that are still alive though no scope keeps them,
    /// nor anything a scope keeps, in the order made: each with its key, its number in the
    /// trace when known, and the resolution path that made it.
    ///
    /// ```swift
    /// checkout = nil                               // the test's own references are gone
    /// #expect(test.leakedInstances().isEmpty)      // or assertNoLeakedInstances(test)
    /// ```
    ///
    /// Call it once the test's own references are gone: anything the test still holds is
    /// alive. Every object a resolution through the test container makes is noted with a weak
    /// reference; objects a factory made without the resolver, and values, are not seen. What
    /// kept instances hold is followed through their stored properties (with `Mirror`), not
    /// through closures: an object only a kept instance's closure holds is listed.
    public func leakedInstances() -> [LeakedInstance] {
        let alive = traces.madeObjects.alive
        guard !alive.isEmpty else { return [] }
        let layers = self.layers.snapshot().layers + self.layers.ownLayers
        let kept = Reachability.objects(from: layers.flatMap(\.cache.objects))
        let leaked = alive.filter { !kept.contains(ObjectIdentifier($0.object)) }
        guard !leaked.isEmpty else { return [] }
        let numbers = traces.withHistory { history in
            leaked.map { history.madeNumbers[ObjectIdentifier($0.object)] }
        }
        return zip(leaked, numbers).map { made, number in
            return LeakedInstance(
                key: made.path.last ?? ServiceKey(AnyObject.self), instance: number, path: made.path,
                typeName: typeName(type(of: made.object)))
        }
    }
}

/// What a set of objects holds, through stored properties, however deep: bounded by the
/// objects and values it visits, each once.
enum Reachability {
    /// At most this many objects and values are visited: a huge graph is cut short, never slow.
    static let limit = 200_000

    /// The identities of `roots` and of every object they hold.
    static func objects(from roots: [AnyObject]) -> Set<ObjectIdentifier> {
        var seen = Set<ObjectIdentifier>()
        var pending: [Any] = roots
        var visited = 0
        while let value = pending.popLast(), visited < limit {
            visited += 1
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .class || type(of: value) is AnyClass {
                guard seen.insert(ObjectIdentifier(value as AnyObject)).inserted else { continue }
            }
            var current: Mirror? = mirror
            while let level = current {
                pending += level.children.map(\.value)
                current = level.superclassMirror
            }
        }
        return seen
    }
}

/// What a test container made, watched past the container's own life: what is still alive once
/// the test container and everything it kept are gone is held by something else (a cycle, a
/// global, a task left running). The `.testContainer` trait checks it when its test ends.
package struct LeakWatch: Sendable {
    private let made: MadeObjects?
    /// The instance numbers of what was alive when the watch began, by identity.
    private let numbers: [ObjectIdentifier: Int]

    fileprivate init(made: MadeObjects?, numbers: [ObjectIdentifier: Int]) {
        self.made = made
        self.numbers = numbers
    }

    /// What the watched test container made and is still alive now.
    package func leakedInstances() -> [LeakedInstance] {
        guard let made else { return [] }
        return made.alive.map { made in
            LeakedInstance(
                key: made.path.last ?? ServiceKey(AnyObject.self), instance: numbers[ObjectIdentifier(made.object)],
                path: made.path, typeName: typeName(type(of: made.object)))
        }
    }

    /// Reports what is still alive as a `leaked-instance` finding of `test`, whose scope is ending.
    package func report(endingScopeOf test: TestRun) {
        let leaked = leakedInstances()
        guard !leaked.isEmpty else { return }
        FindingRouter.report(.leakedInstances(leaked, test: test.name), culprit: test, owner: test)
    }
}

extension TestContainer {
    /// Starts watching what this test container made, to check once it is gone (see ``LeakWatch``):
    /// nothing, when it does not track leaks.
    package func watchForLeaks() -> LeakWatch {
        guard isTrackingLeaks else { return LeakWatch(made: nil, numbers: [:]) }
        let alive = traces.madeObjects.alive
        let numbers = traces.withHistory { history in
            alive.map { history.madeNumbers[ObjectIdentifier($0.object)] }
        }
        var byIdentity: [ObjectIdentifier: Int] = [:]
        for (made, number) in zip(alive, numbers) {
            if let number { byIdentity[ObjectIdentifier(made.object)] = number }
        }
        return LeakWatch(made: traces.madeObjects, numbers: byIdentity)
    }
}
