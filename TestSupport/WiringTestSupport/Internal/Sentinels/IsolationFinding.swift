import Wiring

/// Something the isolation sentinel found: a test whose code escaped its container, or a test
/// using what another test left behind. Reported as a failure of the test it concerns when that
/// test is known and running, else as a warning printed when the test process ends.
enum IsolationFinding: Sendable {
    /// `Container.shared` answered a property wrapper or `Container.injectionResolver` in
    /// `test`, which has a test container of its own.
    case sharedFallback(test: TestRun)
    /// `Container.shared` answered in code no running test is known for, while `owners` ran
    /// with test containers of their own.
    case sharedFallbackOutsideTests(owners: [String])
    /// `test` assigned `Container.shared`, which every test in the process shares.
    case sharedAssigned(test: TestRun, toTestContainer: Bool)
    /// A layer pushed during `pushedDuring` is still pushed while `resolvingTest` resolves.
    case leakedLayer(layer: String, pushedDuring: String, resolvingTest: TestRun)
    /// A test container `maker` made for `owner` was resolved from after that test ended.
    case endedContainer(owner: String, maker: String, resolvingTest: TestRun?)

    /// The test to fail, if it is known and running.
    private var testToFail: TestRun? {
        switch self {
        case .sharedFallback(let test): test
        case .sharedFallbackOutsideTests: nil
        case .sharedAssigned(let test, _): test
        case .leakedLayer(_, _, let test): test
        case .endedContainer(_, _, let test): test
        }
    }

    /// Fails the test concerned (see ``FindingRouter``), or, when none can be, keeps the message
    /// for the end of the run.
    func report() {
        // A test that ended can no longer fail; the message names it.
        guard let test = testToFail, !test.isEnded else {
            RunEnd.warn(message)
            return
        }
        FindingRouter.report(warning, culprit: test, owner: nil)
    }

    /// The short name of what was found: `shared-fallback`, `leaked-layer`, ….
    var identifier: String {
        switch self {
        case .sharedFallback, .sharedFallbackOutsideTests: "shared-fallback"
        case .sharedAssigned: "shared-assigned"
        case .leakedLayer: "leaked-layer"
        case .endedContainer: "ended-test-container"
        }
    }

    /// The finding as a warning: the identifier, and the message after it.
    var warning: WiringWarning {
        WiringWarning(identifier: identifier, message: String(message.dropFirst(identifier.count + 2)))
    }

    /// What happened and why it matters, then, on a line of its own starting with `fix:`, what
    /// to do about it.
    var message: String {
        switch self {
        case .sharedFallback(let test):
            return """
                shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver \
                in \(test), which has a test container of its own: the code that resolved does not see it (it runs \
                outside Container.withCurrent, in a Task.detached or in a callback on another queue), so it used the \
                app's real dependencies
                \(Self.fallbackFix)
                """
        case .sharedFallbackOutsideTests(let owners):
            return """
                shared-fallback: Container.shared answered @Injected, @LazyInjected or Container.injectionResolver \
                in code no test is known for (a Task.detached, a callback on another queue) while \
                \(owners.joined(separator: ", ")) ran with a test container of its own: that code used the app's \
                real dependencies
                \(Self.fallbackFix)
                """
        case .sharedAssigned(let test, let toTestContainer):
            let what = toTestContainer ? "a test container" : "a resolver"
            return """
                shared-assigned: \(test) assigned \(what) to Container.shared, which every test in the process \
                shares: tests running in parallel resolve through it, and it outlives \(test)
                  fix: bind the test's container to the test's task instead, with `Container.withCurrent(test) { … }` \
                or the `.testContainer` trait (WiringSwiftTesting); set Container.shared once, at app launch, not in tests
                """
        case .leakedLayer(let layer, let pushedDuring, let test):
            return """
                leaked-layer: layer "\(layer)", pushed on a shared TestContainer during \(pushedDuring), is still \
                pushed while \(test) resolves through it, so \(test) gets that test's overrides and the instances \
                made in the layer
                  fix: pop the layer in the test that pushes it (`defer { test.popLayer() }`; in XCTest, \
                `pushLayer(_:on:)` pops it at teardown), or use `test.withOverrides({ layer in … }) { … }`, whose \
                layer only the test's own task sees
                """
        case .endedContainer(let owner, let maker, let test):
            let when = if let test, !test.isEnded, test.name != owner {
                "during \(test)"
            } else {
                "by code still running after it (an unawaited task, a callback, a stored reference)"
            }
            return """
                ended-test-container: the test container \(maker) made for \(owner) was resolved from after \
                \(owner) ended, \(when)
                  fix: finish the test's work before it ends (await or cancel its tasks), and give each test a \
                container of its own
                """
        }
    }

    private static let fallbackFix = """
          fix: bind the test container where that code runs, with `Container.withCurrent(test) { … }`, or hand \
        that code the resolver it should use
        """
}
