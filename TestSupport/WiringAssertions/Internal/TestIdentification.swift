import Foundation
import Testing
import WiringTestSupport
import XCTest

/// Found by name by the test support when a test container is made (see
/// `RunningTests.discoverHelperModules`), so that tests are known to the sentinel whichever
/// helper a test used first.
final class TestFrameworkHookInstaller: NSObject, TestFrameworkHooks {
    static func installHooks() {
        TestIdentification.install()
    }
}

/// Tells the test support which test runs and how to fail it, whichever framework runs it:
/// `Test.current` for Swift Testing, the ``XCTestRunObserver`` for XCTest. Installed once, by
/// the first assertion, test container helper or trait used.
package enum TestIdentification {
    private static let installed: Void = {
        XCTestRunObserver.install(duringXCTestTest: Test.current == nil && Thread.isMainThread)
        RunningTests.install(identify: { current() }, fail: { fail(with: $0) })
    }()

    /// The run of each Swift Testing test seen outside a `.testContainer` trait, by id: one
    /// for every case of a parameterized test.
    private static let swiftTestingRuns = LockedState<[Test.ID: TestRun]>([:])

    /// Installs the identification, once.
    package static func install() {
        _ = installed
    }

    /// The name a Swift Testing test counts under: `AppTests.CheckoutSuite/checkout()`.
    package static func name(of test: Test) -> String {
        "\(test.id.moduleName).\(test.id.nameComponents.joined(separator: "/"))"
    }

    /// The run of `testCase`, the XCTest test running now.
    package static func run(for testCase: XCTestCase) -> TestRun {
        XCTestRunObserver.shared.run(for: testCase)
    }

    /// The test running in this task (Swift Testing) or process (XCTest), if any.
    private static func current() -> TestRun? {
        if let test = Test.current {
            return swiftTestingRuns.withLock { runs in
                if let run = runs[test.id] { return run }
                let run = TestRun(name: name(of: test))
                runs[test.id] = run
                return run
            }
        }
        return XCTestRunObserver.shared.currentRun
    }

    /// Fails the running test with `message`: at its declaration in Swift Testing.
    /// - Returns: `false` when no test runs to fail.
    private static func fail(with message: String) -> Bool {
        if let test = Test.current {
            Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
            return true
        }
        guard let testCase = XCTestRunObserver.shared.currentTestCase else { return false }
        // On the test case, with no file and line of this library's.
        #if canImport(Darwin)
        testCase.record(XCTIssue(type: .assertionFailure, compactDescription: message))
        #else
        testCase.recordFailure(withDescription: message, inFile: testCase.name, atLine: 0, expected: true)
        #endif
        return true
    }
}
