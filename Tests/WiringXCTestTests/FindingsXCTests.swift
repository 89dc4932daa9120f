import WiringTestHelpers
import WiringXCTest
import XCTest

/// Findings on the test's own thread fail it at once, at their location: captured here in place.
/// (Whole runs, on other threads and at teardown: FindingsRunTests in WiringSwiftTestingTests.)
final class FindingsXCTests: FailureCapturingTestCase {
    func testAnOverrideOfNothingFailsTheTestAtTheOverride() {
        let test = makeTestContainer(base: makeFindingsApp())
        let line = #line + 2
        let failures = captureFailures {
            test.override((any Logger).self) { _ in ConsoleLogger() }
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.map(\.filePath), ["\(#fileID)"])
        XCTAssertTrue(failures.first?.message.hasPrefix("override-of-unregistered: the override of Logger at \(#fileID):\(line)") == true)
    }

    func testASwallowedLiveOnlyRefusalFailsTheTest() {
        let test = makeTestContainer(base: makeFindingsApp())
        let failures = captureFailures { _ = try? test.resolve(PayDesk.self) }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.contains("path: PayDesk -> LiveGateway") == true, "\(failures)")
    }

    func testAnAllowedFindingFailsNothing() {
        let test = makeTestContainer(base: makeFindingsApp())
        test.wiringFindings(.allow("override-of-unregistered"))
        let failures = captureFailures { test.override((any Logger).self) { _ in ConsoleLogger() } }
        XCTAssertEqual(failures.count, 0)
        XCTAssertEqual(test.warnings.map(\.identifier), ["override-of-unregistered"])
    }

    func testAFindingFromAnotherThreadWaitsForTheTestsTeardown() {
        let test = makeTestContainer(base: makeFindingsApp())
        let failures = captureFailures {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = try? test.resolve(BypassingSync.self)
                done.signal()
            }
            done.wait()
        }
        XCTAssertEqual(failures.count, 0, "recorded from another thread, it could land on the next test")
        let atTeardown = captureFailures { RunningTests.current?.recordPendingFindings() }
        XCTAssertEqual(atTeardown.map(\.filePath), ["App/Findings.swift"])
        XCTAssertTrue(atTeardown.first?.message.hasPrefix("resolver-bypass: the factory of BypassingSync") == true)
    }
}
