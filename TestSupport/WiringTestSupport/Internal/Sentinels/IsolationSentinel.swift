import Wiring

/// Notices a test whose code escaped the test container it declared: `Container.shared`
/// answering a property wrapper while such a test runs. (A layer another test left pushed, and a
/// test container resolved from after its test ended, are noticed as a resolution starts; see
/// ``ContainerSentinel``.)
enum IsolationSentinel {
    /// `Container.injectionResolver` fell back to `shared`: reports it when a test that has a
    /// test container of its own runs, or, unknown to the test support, may have made the call.
    static func sharedFallback(to shared: any Resolver) {
        // A test that made its test container the shared one says so.
        guard !(shared is TestContainer) else { return }
        if let test = RunningTests.current, !test.isEnded {
            if test.shouldReportSharedFallback() { IsolationFinding.sharedFallback(test: test).report() }
            return
        }
        let owners = RunningTests.owningTestNames
        guard !owners.isEmpty else { return }
        IsolationFinding.sharedFallbackOutsideTests(owners: owners).report()
    }

    /// `Container.shared` was assigned: reports it when a test with a test container of its own
    /// made the assignment, since every test in the process shares it (tests running in
    /// parallel see each other's).
    static func sharedAssigned(_ resolver: (any Resolver)?) {
        guard let test = RunningTests.current, !test.isEnded, test.hasTestContainer else { return }
        IsolationFinding.sharedAssigned(test: test, toTestContainer: resolver is TestContainer).report()
    }
}
