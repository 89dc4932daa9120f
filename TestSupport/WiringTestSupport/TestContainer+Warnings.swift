import Wiring

extension TestContainer {
    /// Everything this test container noticed that the test probably did not mean, in the
    /// order noticed, each once: a factory that bypassed its resolver (`resolver-bypass`), a
    /// `popLayer()` with no layer pushed (`unbalanced-pop`), a stale cached instance
    /// (`stale-instance`).
    ///
    /// ```swift
    /// for warning in test.warnings { print(warning.identifier, warning.message) }
    /// assertNoWiringWarnings(test)     // WiringXCTest and WiringSwiftTesting
    /// ```
    ///
    /// A stale instance is noticed when the trace is read (reading `warnings` reads it), so it
    /// takes its place among the others then. `clearTrace()` forgets none of them.
    public var warnings: [WiringWarning] {
        noteStaleInstances()
        return layers.root.warningLog.all
    }

    /// Notes `warning`, unless an equal one was noted before.
    func noteWarning(_ warning: WiringWarning) {
        // The stale instances found so far were noticed before this.
        noteStaleInstances()
        layers.root.warningLog.note(warning)
    }

    /// Notes the stale instances found so far as `stale-instance` warnings.
    private func noteStaleInstances() {
        for stale in staleInstanceWarnings {
            layers.root.warningLog.note(WiringWarning(stale))
        }
    }
}
