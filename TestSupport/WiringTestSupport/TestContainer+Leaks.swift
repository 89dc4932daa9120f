import Wiring

/// An object a test container made that is still alive once the test container let go of every
/// instance it kept: something else holds it, such as a closure that captures it, a cycle of
/// strong references, a global, or the test itself.
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
        return "\(key)\(number) (\(article) \(typeName)), made by \(BoundedText.chain(path)), "
            + "is still alive though the test container let go of what it kept"
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

    /// Lets go of every instance the test container keeps, in every layer (as popping every
    /// layer would), then lists the objects it made that are still alive, in the order made:
    /// each with its key, its number in the trace when known, and the resolution path that made
    /// it. Call it at the end of a test, once the test's own references are gone.
    ///
    /// ```swift
    /// checkout = nil                               // the test's own references are gone
    /// #expect(test.leakedInstances().isEmpty)      // or assertNoLeakedInstances(test)
    /// ```
    ///
    /// What it sees: an object the test container made that something other than the test
    /// container holds: a cycle, a closure, a global, a task left running, or the test itself.
    /// Whether a kept instance holds it weakly or strongly, through a `Provider`, a delegate or
    /// a closure, makes no difference: every kept instance is let go first. What it cannot see:
    /// objects a factory made without the resolver, values, and objects held only by what the
    /// test container still holds after letting go (an override's closure that captured one).
    /// On a test container shared by parallel tests, what another test's `withOverrides` layer
    /// (an `.override` trait's, say) keeps, or was made inside it, is that test's while its scope
    /// runs: not reported.
    /// The next resolve makes kept instances anew.
    public func leakedInstances() -> [LeakedInstance] {
        let watch = watchForLeaks()
        letGoOfKeptInstances()
        return watch.leakedInstances(besideLayersBoundTo: layers)
    }

    /// Lets go of every instance the test container keeps, in every layer.
    package func letGoOfKeptInstances() {
        layers.dropKeptInstances()
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

    /// What the watched test container, now gone (no task has a layer of it bound any more),
    /// made and is still alive.
    package func leakedInstances() -> [LeakedInstance] {
        guard let made else { return [] }
        return describe(made.alive)
    }

    /// What the watched test container, whose layers are `layers`, made and is still alive now,
    /// but what resolutions inside a `withOverrides` layer another task has bound made: that
    /// layer keeps it, or that task's test, still running, may.
    func leakedInstances(besideLayersBoundTo layers: LayerStack) -> [LeakedInstance] {
        guard let made else { return [] }
        return describe(layers.withLayersBoundToOtherTasks { made.alive(exceptMadeInside: $0) })
    }

    private func describe(_ alive: [(object: AnyObject, path: [ServiceKey])]) -> [LeakedInstance] {
        alive.map { made in
            LeakedInstance(
                key: made.path.last ?? ServiceKey(AnyObject.self), instance: numbers[ObjectIdentifier(made.object)],
                path: made.path, typeName: typeName(type(of: made.object)))
        }
    }

    /// Reports what is still alive as a `leaked-instance` finding of `test`, whose scope is
    /// ending. What another thread holds for a moment (a coverage report reading every test
    /// container, a reset looking for the containers it wraps) is let go within a few turns:
    /// the check looks again before it reports.
    package func report(endingScopeOf test: TestRun) async {
        var leaked = leakedInstances()
        var turns = 0
        while !leaked.isEmpty, turns < 20 {
            turns += 1
            try? await Task.sleep(for: .milliseconds(5))
            leaked = leakedInstances()
        }
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
