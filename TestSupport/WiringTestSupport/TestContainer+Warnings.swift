import Wiring

extension TestContainer {
    /// Everything this test container noticed that the test probably did not mean, in the
    /// order noticed, each once: a factory that bypassed its resolver (`resolver-bypass`), a
    /// `popLayer()` with no layer pushed (`unbalanced-pop`), an override that replaces nothing
    /// (`override-of-unregistered`), and, noticed when the warnings are read, a kept scope that
    /// cannot tell a registration's runtime arguments apart (`scope-ignores-arguments`) and a
    /// registration a later one for its key replaced (`duplicate-registration`). (A cached instance made with what an override replaces is no
    /// warning: it is made again with the override.)
    ///
    /// ```swift
    /// for warning in test.warnings { print(warning.identifier, warning.message) }
    /// assertNoWiringWarnings(test)     // WiringXCTest and WiringSwiftTesting
    /// ```
    ///
    /// `clearTrace()` forgets none of them.
    public var warnings: [WiringWarning] {
        for warning in registrationWarnings {
            noteWarning(warning)
        }
        return layers.root.warningLog.all
    }

    /// What the registrations the test container sees show, noticed when read: a kept scope
    /// that cannot tell runtime arguments apart, a registration replaced by a later one.
    var registrationWarnings: [WiringWarning] {
        var warnings = ScopeIgnoringArguments.entries(in: self).map(WiringWarning.scopeIgnoresArguments)
        var container: Container? = base
        var replaced: [Container.ReplacedRegistration] = []
        while let current = container {
            replaced = current.replacedRegistrations + replaced
            container = current.parent
        }
        warnings += replaced.map(WiringWarning.duplicateRegistration)
        return warnings
    }

    /// Notes `warning`, unless an equal one was noted before.
    func noteWarning(_ warning: WiringWarning) {
        layers.root.warningLog.note(warning)
    }
}
