import Wiring

/// What the isolation sentinel watches on one test container, under its layer stack's lock: the
/// test it was made for, whether that test ended, the layers pushed during a test, and what it
/// already reported, so that each finding is reported once to each test.
struct ContainerSentinel {
    /// The test a test container was made for, and what made it.
    struct Owner {
        /// The test's name.
        let test: String
        /// What made it for the test: "`.testContainer`", "`makeTestContainer(base:)`".
        let maker: String
    }

    /// The test the container was made for, if a helper module declared one.
    var owner: Owner?
    /// Whether that test has ended.
    var ownerHasEnded = false
    /// Whether a resolution must be checked: cheap to read on every resolve.
    private(set) var isWatching = false
    /// The tests told the container outlived its test; `nil` for code no test is known for.
    private var toldOfEnd: [TestRun?] = []
    /// The tests told of a layer another test pushed, by layer id.
    private var toldOfLayer: [(layer: Int, test: TestRun)] = []

    /// Watches resolutions once the owner ended or a layer pushed during a test is pushed.
    mutating func watch(pushed: [OverrideLayer]) {
        isWatching = ownerHasEnded || pushed.contains { $0.pushedDuring != nil }
    }

    /// What is wrong with `test` resolving now, not reported before: the container outlived
    /// the test it was made for; a layer another test pushed is still pushed.
    mutating func findings(resolvingIn test: TestRun?, pushed: [OverrideLayer]) -> [IsolationFinding] {
        var findings: [IsolationFinding] = []
        if ownerHasEnded, let owner, !toldOfEnd.contains(where: { $0 === test }) {
            toldOfEnd.append(test)
            findings.append(.endedContainer(owner: owner.test, maker: owner.maker, resolvingTest: test))
        }
        guard let test else { return findings }
        for layer in pushed {
            guard let pusher = layer.pushedDuring, pusher !== test,
                !toldOfLayer.contains(where: { $0.layer == layer.id && $0.test === test })
            else { continue }
            toldOfLayer.append((layer.id, test))
            findings.append(.leakedLayer(layer: layer.name, pushedDuring: pusher.name, resolvingTest: test))
        }
        return findings
    }
}
