import Foundation
import Testing
import Wiring
import WiringTestSupport

// Reports that told a test something false, each a test that failed before its fix (found by a
// sixth hunt). Also checked, and true: unusedRegistrations and resolutionCount after resolveAll, a Provider called later and an initCompleted hook; fakedKeys through async.resolve and a Provider; the manifest rendered the same for registrations in reverse order; captive dependencies held through `T?` and resolveAll; the coverage JSON read back equal to itself.

private final class TruthSession {}
private final class TruthRepository {
    let session: TruthSession
    init(session: TruthSession) { self.session = session }
}
private final class TruthModel {
    let repository: TruthRepository
    init(repository: TruthRepository) { self.repository = repository }
}

private enum TruthPayments { final class Client {} }
private enum TruthSearch { final class Client {} }

/// A helper an app might use to register its clients: each registration it makes has the
/// helper's site (its file and line), as `register` takes them by default.
private func truthRegisterClient<Client: AnyObject>(
    _ type: Client.Type, in container: Container, make: @escaping @Sendable () -> Client
) {
    container.register(type) { _ in make() }
}

@Suite struct ReportsOfAShortLivedServiceAndCoverageTests {
    /// Promise (VerifyingAndTheManifest.md, "Verifying the whole graph"): `verifyWiring()` reports
    /// captive dependencies, "a `.container` singleton holding a `.transient`, `.weak` or
    /// custom-scoped service".
    ///
    /// Before the fix: a `.container` `TruthModel` holding a `.transient` (or `Scope("session")`) `TruthSession`
    /// through an `TruthRepository` in the default scope, `.graph`, gives "0 problems": the report
    /// is complete. The singleton really does hold the session: after
    /// `test.resetScope(Scope("session"))` the kept model still hands out the old session. A
    /// `.graph` service in between is the common case, as `.graph` is the default scope.
    /// Every run (3 of 3, and in a probe with a custom scope).
    ///
    /// Cause: `VerificationObserver.didResolve` compares each step only with its direct
    /// holder (`open.last`), and `.graph`'s policy has `mayBeCaptive: false` and no
    /// `lifespanRank` (`Scope.Lifetime.policy` in Sources/Wiring/Scope.swift), so
    /// `Scope.Policy.isCaptive(heldBy:)` is false at both edges: what a `.graph` (or any
    /// non-kept) step holds is never carried up to the kept step that holds it.
    @Test(arguments: [Scope.transient, Scope("session")])
    func aSingletonHoldingAShortLivedServiceThroughAGraphServiceIsCaptive(sessionScope: Scope) throws {
        let container = Container()
        container.register(TruthSession.self) { _ in TruthSession() }.scope(sessionScope)
        container.register(TruthRepository.self) { r in try TruthRepository(session: r.resolve()) }     // .graph
        container.register(TruthModel.self) { r in try TruthModel(repository: r.resolve()) }.scope(.container)
        let test = TestContainer(base: container)

        let report = test.verifyWiring()

        // The singleton keeps the session: a reset of the session's scope does not reach it.
        let model = try test.resolve(TruthModel.self)
        test.resetScope(sessionScope)
        #expect(try test.resolve(TruthModel.self) === model)
        #expect(try model.repository.session !== test.resolve(TruthSession.self))
        #expect(report.problems.map(\.identifier) == ["captive-dependency"], "\(report)")
        #expect(!report.isComplete)
    }

    /// Promise (CoverageAndTheSentinel.md, "Wiring coverage"): "A registration is identified by
    /// its key and its site"; each process of a `swift test` run "adds its counts to what an
    /// earlier process of the same run wrote"; the report covers every registration, and 100%
    /// means every one.
    ///
    /// Before the fix: an app registers `TruthPayments.Client` and `TruthSearch.Client` through one helper (so
    /// both have the helper's site); a test resolves only the first. The process's own report is
    /// right: "1 of 2 registrations resolved (50%)". Once a second process of the same run adds
    /// its counts (here it resolved nothing, as an XCTest process with no test container would),
    /// the file says "1 of 1 registration resolved by 1 test (100%)": the never-resolved
    /// `TruthSearch.Client` is gone from the report and from "Never resolved by a test". The two
    /// also share one label, `Client`, in the text and the JSON, so even the 50% report cannot
    /// say which one was never resolved (and, as read, their order there is a dictionary's:
    /// `WiringCoverage.Entry.areInReportOrder` ties on file, line, label and kind).
    /// Every run (3 of 3).
    ///
    /// Cause: `CoverageRecord.coverage` keeps each entry's key only as
    /// `ServiceKey.description` (`Client` for both: `typeName` is `String(describing:)`), and
    /// `WiringCoverage.adding(_:)` (WiringCoverage.swift) identifies entries by (kind, that
    /// label, site), so the two distinct registrations are merged into one, their test counts
    /// added. `CoverageFile.write(_:to:run:)` calls `adding` for every process after the first.
    @Test func coverageAddedUpAcrossProcessesKeepsTwoRegistrationsThatShareALabelAndASite() throws {
        let container = Container()
        truthRegisterClient(TruthPayments.Client.self, in: container) { TruthPayments.Client() }
        truthRegisterClient(TruthSearch.Client.self, in: container) { TruthSearch.Client() }
        let test = TestContainer(base: container)
        try RunningTests.$bound.withValue(TestRun(name: "AppTests.PaymentsTests/pays()")) {
            _ = try test.resolve(TruthPayments.Client.self)
        }
        let thisProcess = WiringCoverage(testContainers: [test])
        #expect(thisProcess.description == "Wiring coverage: 1 of 2 registrations resolved by 1 test (50%)")

        // Two processes of one run write the report in turn, as `swift test` runs XCTest and
        // Swift Testing.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hunt6-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wiring-coverage.txt").path
        try CoverageFile.write(thisProcess, to: path, run: "hunt6")
        try CoverageFile.write(WiringCoverage(testContainers: []), to: path, run: "hunt6")

        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("Wiring coverage: 1 of 2 registrations resolved by 1 test (50%)\n"), "\(written)")
        let total = try CoverageFile.decode(Data(contentsOf: URL(fileURLWithPath: CoverageFile.jsonPath(forReportAt: path))))
        #expect(total.registrations.count == 2, "\(total.render())")
        #expect(total.unresolved.count == 1, "\(total.render())")
    }
}
