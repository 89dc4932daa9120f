import Wiring

/// What a test container recorded and what it can say about its registrations.
extension TestContainer {
    /// Every resolution made through this test container since it was made or last cleared.
    public var trace: ResolutionTrace {
        ResolutionTrace(roots: traces.withHistory { $0.roots })
    }

    /// How many steps numbering the instances of the trace compared steps with so far: linear in
    /// the steps recorded (a test checks it).
    package var numberingComparisons: Int {
        traces.withHistory { $0.numberingComparisons }
    }

    /// Forgets the recorded trace and resolution counts. Registrations resolved so far still
    /// count as used, and instances kept by a scope keep their numbers.
    public func clearTrace() {
        traces.clear()
    }

    /// How often a service was resolved through this test container, at any depth.
    /// - Parameters:
    ///   - serviceType: The type asked for.
    ///   - name: The registration's name, if any. Registrations with runtime arguments count too.
    public func resolutionCount<Service>(of serviceType: Service.Type, name: String? = nil) -> Int {
        let identifier = ObjectIdentifier(serviceType)
        return traces.withHistory { history in
            history.counts.filter { $0.key.typeIdentifier == identifier && BoundedText.sameName($0.key.name, name) }.values.reduce(0, +)
        }
    }

    /// The keys among `expected` that nothing here can resolve: no layer, base registration,
    /// fake or `Injectable` conformance, or one a module replacement hides. A live-only
    /// registration is registered, though a resolve here refuses it.
    public func missingRegistrations(expected: [ServiceKey]) -> [ServiceKey] {
        expected.filter { key in
            guard let found = layers.lookup(key) else { return !Self.isImplicit(key) }
            return Refusal.isHidden(found.entry)
        }
    }

    /// Registrations of the base and overrides of the current layers that were never resolved
    /// through this test container, in registration order, each with where it was registered.
    /// Overrides nobody used are worth a look: the test may not test what it says.
    public func unusedRegistrations() -> [UnusedRegistration] {
        let used = traces.withHistory { $0.used }
        return layers.visibleRegistrations(includingParents: true)
            // A registration a replaced module made is hidden, not an override anyone forgot.
            .filter { !used.contains($0.entry.id) && !$0.entry.options.isRefusal }
            .map { UnusedRegistration(key: $0.entry.key, site: $0.entry.site, layer: layers.layerName(of: $0)) }
    }

    /// Whether the container builds `key` itself, unregistered: `Injectable`, `Provider`, `Lazy`.
    private static func isImplicit(_ key: ServiceKey) -> Bool {
        implicitEntry(for: key) != nil
    }

    /// The registration the container makes for `key` when nothing registers it: for an
    /// `Injectable` type, a `Provider` or a `Lazy`; `nil` for any other key.
    static func implicitEntry(for key: ServiceKey) -> RegistrationEntry? {
        func probe<Service>(_ type: Service.Type) -> RegistrationEntry? {
            ImplicitRegistrations.entry(for: key, as: type)
        }
        return probe(key.serviceType)
    }
}
