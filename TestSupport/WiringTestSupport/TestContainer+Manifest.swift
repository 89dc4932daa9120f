import Wiring

extension TestContainer {
    /// Describes the whole static wiring: every registration the test container sees (the
    /// base, its parents, its own registrations and the overrides of the current layers) with
    /// its scope, its file and what it needs, and every problem of the wiring report.
    ///
    /// ```swift
    /// let manifest = test.wiringManifest()     // every registration, scope, dependencies, problems
    /// manifest.render()                        // deterministic text; no line numbers, no addresses
    /// ```
    ///
    /// What a registration needs is what its factory resolved while the sandbox of
    /// ``verifyWiring(samples:)`` built it, plus what its autowired initializer declares: the
    /// manifest runs no more app code than that check, and, like it, leaves no instance, trace
    /// entry or count behind. Registrations taking runtime arguments are left unchecked, with
    /// only their declared needs, unless `samples` gives them sample arguments:
    ///
    /// ```swift
    /// let manifest = test.wiringManifest { samples in
    ///     samples.add(ProductViewModel.self, arguments: 42)
    /// }
    /// ```
    /// - Parameter samples: Adds sample arguments for registrations that take them; none by
    ///   default.
    public func wiringManifest(samples: (inout VerificationSamples) -> Void = { _ in }) -> WiringManifest {
        let findings = WiringVerifier(test: self, samples: VerificationSamples(samples)).runForManifest()
        noteWholeGraphCheck("wiringManifest", checked: findings.registrations.map(\.entry.key))
        return manifest(from: findings)
    }

    /// Describes the whole static wiring, as ``wiringManifest(samples:)`` does, building
    /// registrations whose factory (or a dependency's) must be awaited as
    /// ``verifyWiringAsync(samples:)`` does, on the main actor: their needs are listed like any
    /// other's, and a missing dependency of an async factory shows in the manifest.
    ///
    /// ```swift
    /// let manifest = await test.wiringManifestAsync()
    /// ```
    /// - Parameter samples: Adds sample arguments for registrations that take them; none by
    ///   default.
    @MainActor
    public func wiringManifestAsync(samples: (inout VerificationSamples) -> Void = { _ in }) async -> WiringManifest {
        let findings = await WiringVerifier(test: self, samples: VerificationSamples(samples)).runForManifestAwaiting()
        noteWholeGraphCheck("wiringManifestAsync", checked: findings.registrations.map(\.entry.key))
        return manifest(from: findings)
    }

    /// The manifest of what one check found.
    private func manifest(from findings: WiringVerifier.Findings) -> WiringManifest {
        let registered = Set(findings.registrations.map(\.entry.key))
        let unchecked = Set(findings.report.unchecked)
        let liveOnly = Set(findings.report.liveOnly)
        let graph = findings.graph
        let fakes = layers.activeFakes.registry

        /// How far the check got with `key`.
        func check(of key: ServiceKey) -> WiringManifest.Entry.Check {
            if liveOnly.contains(key) { return .liveOnly }
            if unchecked.contains(key) { return .unchecked }
            return graph.failed.contains(key) ? .failed : .built
        }

        /// What answers a key, as a resolution through the sandbox looks it up.
        func answer(_ key: ServiceKey) -> WiringManifest.Need.Answer {
            if registered.contains(key) { return .registration }
            if fakes[key] != nil { return .fake }
            return Self.implicitEntry(for: key) != nil ? .implicit : .missing
        }

        /// What the check saw `key` resolve, and what its initializer declares.
        func needs(of key: ServiceKey, declared: [Dependency]?) -> [WiringManifest.Need] {
            let resolved = graph.dependencies[key] ?? []
            let declared = declared ?? []
            let optional = Set(declared.filter(\.isOptional).map(\.key))
            return resolved.union(declared.map(\.key)).sortedByLabel().map { need in
                WiringManifest.Need(
                    key: need, answer: answer(need), isOptional: optional.contains(need),
                    isResolved: resolved.contains(need))
            }
        }

        var entries = findings.registrations.map { found in
            let entry = found.entry
            return WiringManifest.Entry(
                key: entry.key, scope: entry.scope, file: entry.site.fileID,
                origin: layers.layerName(of: found).map { .layer($0) } ?? .base,
                check: check(of: entry.key),
                needs: needs(of: entry.key, declared: entry.options.dependencies))
        }
        // The types built unregistered that anything needs, and what they need in turn.
        var pending = entries.flatMap(\.needs).filter { $0.answer == .implicit }.map(\.key)
        var listed = Set<ServiceKey>()
        while let key = pending.popLast() {
            guard listed.insert(key).inserted, let entry = Self.implicitEntry(for: key) else { continue }
            let implicit = WiringManifest.Entry(
                key: key, scope: entry.scope, file: nil, origin: .implicit, check: check(of: key),
                needs: needs(of: key, declared: entry.options.dependencies))
            entries.append(implicit)
            pending += implicit.needs.filter { $0.answer == .implicit }.map(\.key)
        }
        return WiringManifest(entries: entries, report: findings.report)
    }
}
