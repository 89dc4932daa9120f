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
        RunningTests.install(
            identify: { current() }, record: { record($0, reportsOnly: $1) },
            recordPendingSoon: { recordPendingSoon(of: $0) })
    }()

    /// The run of each Swift Testing test case seen outside a `.testContainer` trait: each case
    /// of a parameterized test fails, and leaves layers pushed, on its own.
    private static let swiftTestingRuns = LockedState<[TestCaseKey: TestRun]>([:])

    /// Installs the identification, once.
    package static func install() {
        _ = installed
    }

    /// What the `.wiringFindings` traits of `test` and its suites allow: known before any trait's
    /// scope begins, so that the order the traits are listed in does not matter.
    package static func declaredFindingPolicy(of test: Test) -> WiringFindings {
        test.traits.lazy.compactMap { ($0 as? any FindingPolicyTrait)?.findingPolicy }
            .reduce(WiringFindings.failTests) { $0.merging($1) }
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
            let key = TestCaseKey(test: test.id, testCase: Test.Case.current)
            if let run = swiftTestingRuns.withLock({ $0[key] }) { return run }
            // Made outside the lock: telling the run its policy takes the run's own.
            let made = TestRun(name: name(of: test))
            made.findingPolicy = declaredFindingPolicy(of: test)
            return swiftTestingRuns.withLock { runs in
                if let run = runs[key] { return run }
                runs[key] = made
                return made
            }
        }
        return XCTestRunObserver.shared.currentRun
    }

    /// Records `finding` as a failure of the running test, at the finding's site (else at the
    /// test), if the calling task or thread is the test's own: the task Swift Testing runs the
    /// test in (or one it created), or, in XCTest, the main thread while the test runs. From
    /// anywhere else a failure would be attributed to no test, or to the next one.
    /// - Returns: `false` when it is not recorded.
    private static func record(_ finding: WiringWarning, reportsOnly: Bool) -> Bool {
        let text = finding.description
        if let test = Test.current {
            let location = finding.site.flatMap(sourceLocation(of:)) ?? test.sourceLocation
            Issue.record(Comment(rawValue: text), severity: reportsOnly ? .warning : .error, sourceLocation: location)
            return true
        }
        guard Thread.isMainThread, XCTestRunObserver.shared.currentRun != nil else { return false }
        if reportsOnly {
            RunEnd.printToStandardError("warning: \(text)")
            return true
        }
        let file = finding.site?.fileID
        let line = max(finding.site?.line ?? 0, 0)
        if let testCase = XCTestRunObserver.shared.currentTestCase {
            #if canImport(Darwin)
            let context = XCTSourceCodeContext(location: file.map { XCTSourceCodeLocation(filePath: $0, lineNumber: line) })
            testCase.record(XCTIssue(type: .assertionFailure, compactDescription: text, sourceCodeContext: context))
            #else
            testCase.recordFailure(withDescription: text, inFile: file ?? testCase.name, atLine: line, expected: true)
            #endif
        } else {
            // The test running when the observer was added, whose case XCTest did not tell.
            XCTFail(finding.site.map { "\($0): \(text)" } ?? text)
            XCTestRunObserver.shared.noteUnconfirmed(finding)
        }
        return true
    }

    /// Records what was noticed for `test`, an XCTest test, away from its thread, on its thread
    /// as soon as that is free: XCTest runs a test on the main thread, which runs the main queue
    /// whenever the test waits (an async test or `tearDown()`, an expectation). What the test
    /// still runs for then fails it; else it waits for the end of the test's scope, or of the run.
    /// A Swift Testing test has no such thread.
    private static func recordPendingSoon(of test: TestRun) {
        guard Test.current == nil, !Thread.isMainThread, XCTestRunObserver.shared.currentRun === test else { return }
        let recorded = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            test.recordPendingFindings()
            recorded.signal()
        }
        // Past Wiring's teardown block the test is in its `tearDown()` methods, and the main
        // thread is free only while it awaits an async one, which may return right after this:
        // waiting a moment lets the main thread record before the test finishes. Bounded, for a
        // main thread that is busy instead.
        if test.hasScopeEnded { _ = recorded.wait(timeout: .now() + .milliseconds(500)) }
    }

    /// `site` as Swift Testing takes a location, if it names a file as `#fileID` does.
    private static func sourceLocation(of site: RegistrationSite) -> SourceLocation? {
        guard site.fileID.contains("/"), let fileName = site.fileID.split(separator: "/").last else { return nil }
        return SourceLocation(fileID: site.fileID, filePath: String(fileName), line: max(site.line, 1), column: 1)
    }
}

/// A trait that allows findings in the tests it applies to (`.wiringFindings`).
package protocol FindingPolicyTrait: Trait {
    var findingPolicy: WiringFindings { get }
}

/// One case of a Swift Testing test: the test, and for a parameterized one, its arguments and
/// the number telling equal arguments apart.
///
/// Swift Testing keeps that identity (`Test.Case.ID`) out of its public interface, so it is read
/// from the case by reflection; should the case's layout change, the case's whole reflected text
/// stands in for it, which still tells cases apart. The repetitions of a test (`--repetitions`)
/// are one case: nothing public tells them apart.
struct TestCaseKey: Hashable {
    private let test: Test.ID
    private let arguments: [[UInt8]]
    private let discriminator: Int
    private let fallback: String?

    init(test: Test.ID, testCase: Test.Case?) {
        self.test = test
        guard let testCase, testCase.isParameterized else {
            (arguments, discriminator, fallback) = ([], 0, nil)
            return
        }
        if let (arguments, discriminator) = Self.identity(of: testCase) {
            (self.arguments, self.discriminator, fallback) = (arguments, discriminator, nil)
        } else {
            (arguments, discriminator, fallback) = ([], 0, String(reflecting: testCase))
        }
    }

    /// The arguments' identities and the discriminator of a parameterized case, where Swift
    /// Testing keeps them: `_kind: .parameterized(arguments: [Argument(id: ID(bytes:))], discriminator:)`.
    private static func identity(of testCase: Test.Case) -> ([[UInt8]], Int)? {
        guard let kind = Mirror(reflecting: testCase).descendant("_kind"),
            let payload = Mirror(reflecting: kind).children.first?.value
        else { return nil }
        let fields = Mirror(reflecting: payload)
        guard let arguments = fields.descendant("arguments") as? [Any],
            let discriminator = fields.descendant("discriminator") as? Int
        else { return nil }
        var identities: [[UInt8]] = []
        for argument in arguments {
            guard let bytes = Mirror(reflecting: argument).descendant("id", "bytes") as? [UInt8] else { return nil }
            identities.append(bytes)
        }
        return (identities, discriminator)
    }
}
