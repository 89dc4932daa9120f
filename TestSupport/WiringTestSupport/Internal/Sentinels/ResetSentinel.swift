import Wiring

/// Notices app code that resets a scope on a container a test container wraps: the test
/// container keeps its own instances, so the reset reaches nothing the test resolved, and must
/// not reach another test's. It is a finding of the running test, noted on its test containers.
enum ResetSentinel {
    /// `container.resetScope(scope)` was called at `site`.
    static func reset(_ container: Container, scope: Scope, at site: RegistrationSite) {
        let stacks = CoverageRegistry.shared.liveLayerStacks.filter { $0.wraps(container) }
        guard !stacks.isEmpty else { return }
        let running = RunningTests.current.flatMap { $0.isEnded ? nil : $0 }
        let finding = WiringWarning.resetOfWrappedContainer(scope, at: site)
        // The running test's test containers, and those of no test (shared ones).
        let concerned = stacks.filter { $0.root.warningLog.owner.map { $0 === running } ?? true }
        if concerned.isEmpty {
            guard let running else { return }
            FindingRouter.report(finding, culprit: running, owner: nil)
        }
        for stack in concerned { stack.root.warningLog.note(finding, culprit: running) }
    }
}
