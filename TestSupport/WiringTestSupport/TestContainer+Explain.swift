import Wiring

extension TestContainer {
    /// Says what a resolve of `serviceType` would use now, and why: which layer's override, fake,
    /// registration or implicit registration answers, with its site and scope; what it shadows;
    /// whether an instance is kept, in which layer, and whether an override made it stale; and,
    /// when nothing answers, the near misses and the fix.
    ///
    /// ```swift
    /// print(test.explain(Network.self))
    /// print(test.explain(Database.self, name: "replica"))
    /// print(test.explain(Greeter.self, arguments: String.self))   // registered with a String argument
    /// ```
    ///
    /// Explaining resolves nothing and runs no factory.
    /// - Parameters:
    ///   - serviceType: The type a resolve would ask for.
    ///   - name: The registration's name, if any.
    ///   - arguments: The types of the runtime arguments a resolve would pass, if any, in order:
    ///     `String.self, Int.self` for `resolve(Greeter.self, arguments: "a", 1)`.
    public func explain<Service, each Argument>(
        _ serviceType: Service.Type, name: String? = nil, arguments: repeat (each Argument).Type
    ) -> WiringExplanation {
        explanation(of: ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self), as: serviceType)
    }

    /// ``explain(_:name:arguments:)`` for a key: `test.explain(key, as: Greeter.self)`.
    ///
    /// Deprecated: name the type and the argument types, as a resolve does:
    /// `test.explain(Greeter.self, arguments: String.self)`.
    /// - Parameters:
    ///   - key: The key a resolve would ask for.
    ///   - serviceType: Its type.
    @available(*, deprecated, message: "name the type, and the argument types in arguments:, as a resolve does")
    public func explain<Service>(_ key: ServiceKey, as serviceType: Service.Type) -> WiringExplanation {
        explanation(of: key, as: serviceType)
    }

    /// What ``explain(_:name:arguments:)`` says about `key`.
    private func explanation<Service>(of key: ServiceKey, as serviceType: Service.Type) -> WiringExplanation {
        let snapshot = layers.snapshot()
        var candidates: [(entry: RegistrationEntry, candidate: WiringExplanation.Candidate)] = []
        for layer in snapshot.layers {
            guard let entry = layer.overrides.registry[key] else { continue }
            // Worded as the trace marks it (`(override "test")`), the root layer included.
            var origin = "the override in layer \"\(layer.name)\""
            if entry.options.isRefusal {
                origin = "nothing: the module that registered it is replaced in layer \"\(layer.name)\", which hides it"
            } else if let module = entry.options.module, let replaced = layer.replacedModule(by: module) {
                origin = "the module \(module), which replaces \(replaced) in layer \"\(layer.name)\""
            }
            candidates.append((entry, .init(origin: origin, site: entry.site, scope: entry.scope)))
        }
        var fake = layers.activeFakes.registry[key].map {
            (entry: $0, candidate: WiringExplanation.Candidate(origin: "the fake", site: $0.site, scope: $0.scope))
        }
        if let found = layers.base.lookup(key, in: nil) {
            var origin = found.cache === layers.base ? "the registration in the base" : "the registration in a parent of the base"
            if found.entry.options.isLiveOnly {
                origin = "the live-only " + origin.dropFirst("the ".count)
                // A fake answers a live-only registration; with neither, a resolve throws `live-only`.
                if let answering = fake {
                    candidates.append(answering)
                    fake = nil
                }
            }
            candidates.append((found.entry, .init(origin: origin, site: found.entry.site, scope: found.entry.scope)))
        }
        if let fake {
            candidates.append(fake)
        }
        if candidates.isEmpty, let entry = ImplicitRegistrations.entry(for: key, as: serviceType) {
            candidates.append((entry, .init(origin: "the implicit registration", site: nil, scope: entry.scope)))
        }
        guard let answer = candidates.first else {
            return WiringExplanation(
                key: key, answer: nil, shadowed: [], instance: nil, factory: nil, nearMisses: nearMisses(of: key))
        }
        return WiringExplanation(
            key: key, answer: answer.candidate, shadowed: candidates.dropFirst().map(\.candidate),
            instance: keptInstanceDescription(of: answer.entry, in: snapshot),
            factory: isolationDescription(of: answer.entry), nearMisses: [])
    }

    /// Where the factory of `entry` runs, in words, if a synchronous resolve cannot run it
    /// anywhere, or that it never runs here, if it is live-only.
    private func isolationDescription(of entry: RegistrationEntry) -> String? {
        if entry.options.isLiveOnly {
            return "live-only: never run through this test container (a resolve throws live-only); override it or give it a fake"
        }
        let call = "`try await \(entry.key.call("test.async.resolve"))`"
        switch entry.factoryIsolation {
        case .none: return nil
        case .mainActor:
            return "runs on the main actor: a synchronous resolve works from main-actor code, \(call) from anywhere"
        case .async:
            return "async: resolve it with \(call), or from an async factory"
        }
    }

    /// What the scope of `entry` keeps, in words.
    private func keptInstanceDescription(of entry: RegistrationEntry, in snapshot: LayerSnapshot) -> String {
        let policy = entry.policy
        guard policy.keepsInstances else {
            return policy.sharedWithinResolve
                ? "\(entry.scope) shares one within each top-level resolve, and keeps none after it"
                : "\(entry.scope) makes a new one on every resolve"
        }
        // A `.weak` box whose instance is gone keeps nothing: the next resolve makes one.
        guard let kept = snapshot.keptBox(for: entry), InstanceStore.instance(in: kept.box) != nil else {
            return "none kept yet; the next resolve makes one and keeps it in layer \"\(snapshot.layers[0].name)\""
        }
        let number = InstanceStore.object(in: kept.box).flatMap { object in
            traces.withHistory { $0.numbers.number(ofStored: ObjectIdentifier(object)) }
        }
        let instance = number.map { "#\($0)" } ?? "one"
        guard let stale = kept.stale else { return "\(instance), kept in layer \"\(kept.layer.name)\"" }
        return "\(instance), kept in layer \"\(kept.layer.name)\", is not handed out: \(stale.dependency) is now "
            + "answered by \(stale.answeredIn) (\(stale.site)); the next resolve makes it again in layer \"\(snapshot.layers[0].name)\""
    }

    /// The registrations of the key's type, and the fix a resolve's error would give.
    private func nearMisses(of key: ServiceKey) -> [String] {
        let registered = registrations(ofType: key.serviceType)
        let error = ResolutionError(
            key: key, path: [key],
            reason: .notRegistered(nearMisses: registered.map { .init(key: $0.entry.key, site: $0.entry.site) }))
        var lines = registered.map { "registered: \($0.entry.key) at \($0.entry.site)" }
        lines.append("fix: \(error.fix)")
        return lines
    }
}
