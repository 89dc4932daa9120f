import Wiring

extension TestContainer {
    /// Everything this test container noticed that the test probably did not mean, in the
    /// order noticed, each once: a factory that bypassed its resolver (`resolver-bypass`), a
    /// `popLayer()` with no layer pushed (`unbalanced-pop`), a kept scope that cannot tell a
    /// registration's runtime arguments apart (`scope-ignores-arguments`, noticed when the
    /// warnings are read). (A cached instance made with what an override replaces is no
    /// warning: it is made again with the override.)
    ///
    /// ```swift
    /// for warning in test.warnings { print(warning.identifier, warning.message) }
    /// assertNoWiringWarnings(test)     // WiringXCTest and WiringSwiftTesting
    /// ```
    ///
    /// `clearTrace()` forgets none of them.
    public var warnings: [WiringWarning] {
        for entry in ScopeIgnoringArguments.entries(in: self) {
            noteWarning(.scopeIgnoresArguments(entry))
        }
        return layers.root.warningLog.all
    }

    /// Notes `warning`, unless an equal one was noted before.
    func noteWarning(_ warning: WiringWarning) {
        layers.root.warningLog.note(warning)
    }
}
