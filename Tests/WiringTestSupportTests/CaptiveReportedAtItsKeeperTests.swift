// A captive held through `.graph` services is reported at the singleton that keeps it, with a
// path from it; the test below failed before its fix (found by a tenth hunt). Also checked: a captive through a `.graph` service is reported the same whatever the registration order; a `.container` singleton holding an `implements` forward to another `.container` one is no captive; a `.weak` singleton holding a `.transient` through a `.graph` service is reported, as directly held; a `.graph` dependency (the default scope) is no captive.
import Foundation
import Testing
import Wiring
import WiringTestSupport

private final class CaptiveSession {}
private final class CaptiveRepository {
    let session: CaptiveSession
    init(session: CaptiveSession) { self.session = session }
}
private final class CaptiveStore {
    let repository: CaptiveRepository
    init(repository: CaptiveRepository) { self.repository = repository }
}

@Suite struct CaptiveReportedAtItsKeeperTests {
    /// Promise (`WiringProblem.siteOwner`: "The registration ``site`` belongs to"; the problem's
    /// text "registered at: <site> (<registration>)"; `VerificationObserver.captive`: "`path`
    /// runs from the top-level request down to `held`"): a captive dependency's report names the
    /// registration its site is, and its path starts at the singleton that keeps the instance,
    /// as it does for a service held directly ("path: Store -> Session", "registered at:
    /// <Store's line> (Store)").
    ///
    /// Before the fix: a `.container` `CaptiveStore` holding a `.transient` `CaptiveSession` through a
    /// `.graph` `CaptiveRepository` is reported with "path: CaptiveRepository -> CaptiveSession" and
    /// "registered at: App/Captive.swift:30 (CaptiveRepository)": line 30 is CaptiveStore's
    /// registration, labelled as CaptiveRepository's (which is at line 20); the problem's `key` is
    /// CaptiveRepository, the `.graph` service, and the singleton at fault is on no path. Every
    /// run (3 of 3), whatever the registration order.
    ///
    /// Cause: `VerificationObserver.captive(_:scope:path:holder:direct:)`
    /// (TestSupport/WiringTestSupport/Internal/Verification/VerificationObserver.swift) gives the
    /// problem `site: holder.site` (the keeper's) while `WiringProblem.siteOwner` reads the owner
    /// as `path.dropLast().last` (the `direct` step, here the `.graph` service), and the path
    /// handed to it (`step.path + [step.key]` in `didResolve`) does not reach up to the keeper.
    @Test func aCaptiveThroughAGraphServiceNamesTheSingletonAtItsSite() throws {
        let container = Container()
        container.register(CaptiveSession.self, file: "App/Captive.swift", line: 10) { _ in CaptiveSession() }
            .scope(.transient)
        container.register(CaptiveRepository.self, file: "App/Captive.swift", line: 20) { r in
            try CaptiveRepository(session: r.resolve())
        }
        container.register(CaptiveStore.self, file: "App/Captive.swift", line: 30) { r in
            try CaptiveStore(repository: r.resolve())
        }.scope(.container)

        let report = TestContainer(base: container).verifyWiring()

        let problem = try #require(report.problems.first { $0.identifier == "captive-dependency" }, "\(report)")
        #expect(report.problems.count == 1, "\(report)")
        #expect(problem.description.contains("registered at: App/Captive.swift:30 (CaptiveStore)"), "\(problem)")
        #expect(problem.path.map(\.description) == ["CaptiveStore", "CaptiveRepository", "CaptiveSession"], "\(problem)")
    }
}
