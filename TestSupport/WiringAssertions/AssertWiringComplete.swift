import Wiring
import WiringTestSupport

/// Builds every registration once in a throw-away sandbox (`verifyWiring()`) and fails the
/// running test at this line with the whole report when anything is wrong (missing
/// dependencies, cycles, factories that throw, captive dependencies) or any registration is
/// left unchecked: one taking runtime arguments fails until it is given sample ones.
///
/// ```swift
/// assertWiringComplete(test)
/// assertWiringComplete(test) { samples in samples.add(ProductViewModel.self, arguments: 42) }
/// ```
/// - Parameters:
///   - test: The test container to verify: its base, its own registrations and its overrides.
///   - samples: Sample runtime arguments, for registrations that take some; one without is
///     unchecked, which fails the assertion.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertWiringComplete(
    _ test: TestContainer,
    samples: (inout VerificationSamples) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkWiringComplete(test, samples: samples, at: site)
}

/// Builds every registration of an app's container once in a throw-away sandbox and fails the
/// running test at this line with the whole report when anything is wrong or left unchecked.
/// The container is not modified: no singleton it would make is kept.
///
/// ```swift
/// assertWiringComplete(makeAppContainer())
/// ```
/// - Parameters:
///   - container: The container to verify, with its parents.
///   - samples: Sample runtime arguments, for registrations that take some; one without is
///     unchecked, which fails the assertion.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertWiringComplete(
    _ container: Container,
    samples: (inout VerificationSamples) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkWiringComplete(TestContainer(base: container), samples: samples, at: site)
}

/// Builds every registration once in a throw-away sandbox, awaiting those whose factory (or a
/// dependency's) must be awaited (`verifyWiringAsync()`), and fails the running test at this
/// line with the whole report when anything is wrong or left unchecked.
///
/// ```swift
/// await assertWiringCompleteAsync(test)
/// ```
/// - Parameters:
///   - test: The test container to verify: its base, its own registrations and its overrides.
///   - samples: Sample runtime arguments, for registrations that take some; one without is
///     unchecked, which fails the assertion.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
@MainActor
public func assertWiringCompleteAsync(
    _ test: TestContainer,
    samples: (inout VerificationSamples) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkWiringComplete(await test.verifyWiringAsync(samples: samples), at: site)
}

package func checkWiringComplete(
    _ test: TestContainer, samples: (inout VerificationSamples) -> Void, at site: CallSite
) {
    checkWiringComplete(test.verifyWiring(samples: samples), at: site)
}

/// Fails the running test at `site` with `report`, unless it is complete.
package func checkWiringComplete(_ report: WiringReport, at site: CallSite) {
    guard !report.isComplete else { return }
    var message = "the wiring is incomplete:\n\(indented(report.description))"
    let needingSamples = report.needingSamples
    if !needingSamples.isEmpty {
        let (shown, more) = BoundedText.listed(needingSamples.map { $0.call("samples.add") })
        let adds = (Array(shown) + (more.map { ["// \($0)"] } ?? [])).joined(separator: "; ")
        message += "\nfix: give sample arguments to the assertion, `assertWiringComplete(…) { samples in \(adds) }`"
    }
    recordFailure(message, at: site)
}
