// A mutant names a registration as coverage names it, twins included, and a captive dependency
// in a scope with a huge name is reported in bounded text; each test failed before its fix
// (found by an eighth hunt). Also checked: verifyWiring() of a chain of 900 (and of 5,000) .graph services under a .container one, ending in a .transient one: one captive (or 4 too-deep problems), in under 2 s, its text bounded.
import Foundation
import Testing
import Wiring
import WiringTestSupport

private enum TwinPayments { final class Client {} }
private enum TwinSearch { final class Client {} }

/// A helper an app might use to register its clients: each registration has the helper's site.
private func twinRegisterClient<Client: AnyObject>(
    _ type: Client.Type, in container: Container, make: @escaping @Sendable () -> Client
) {
    container.register(type) { _ in make() }
}

private final class TwinNode: Sendable {
    let next: TwinNode?
    init(next: TwinNode?) { self.next = next }
}

@Suite struct TwinKeysAndLongScopeNamesTests {
    /// Promise (Mutants.md and `--only`'s help: a mutant's key is "as the coverage prints it";
    /// `WiringMutant`: `WIRING_MUTANT=<key>:<kind>` mutates the registration of that key). Since
    /// today, CoverageAndTheSentinel.md: two types of one label and site are named "with their
    /// modules, so they stay two".
    ///
    /// Before the fix: an app registers `TwinPayments.Client` and `TwinSearch.Client` through one helper.
    /// Coverage names them by `String(reflecting:)` (`WiringTestSupportTests.(unknown context
    /// at $…).TwinPayments.Client`), and wiring-mutants sets `WIRING_MUTANT` to that key; a test
    /// container under `<that key>:unregister` still resolves `TwinPayments.Client`: the mutant
    /// changes nothing, so every such mutant is reported survived. Every run (3 of 3).
    ///
    /// Cause: `CoverageRecord.labels(of:)` (WiringTestSupport/Internal/Coverage/CoverageRecord.swift,
    /// changed today) writes a key that is no `ServiceKey.description`, while
    /// `MutatedRegistration.init?(_:base:fakes:)` (Internal/Mutants/MutatedRegistration.swift)
    /// finds the registration by `$0.key.description == mutant.key` only.
    @Test func aMutantOfATwinRegistrationNamedAsCoverageNamesItMutatesIt() throws {
        let container = Container()
        twinRegisterClient(TwinPayments.Client.self, in: container) { TwinPayments.Client() }
        twinRegisterClient(TwinSearch.Client.self, in: container) { TwinSearch.Client() }
        let test = TestContainer(base: container)
        try RunningTests.$bound.withValue(TestRun(name: "AppTests.PaymentsTests/pays()")) {
            _ = try test.resolve(TwinPayments.Client.self)
        }
        let keys = WiringCoverage(testContainers: [test]).registrations.map(\.key)
        let payments = try #require(keys.first { $0.contains("TwinPayments") }, "\(keys)")

        let mutated = WiringMutant.$inTask.withValue(WiringMutant(key: payments, kind: .unregister)) {
            TestContainer(base: container)
        }
        #expect(throws: ResolutionError.self, "WIRING_MUTANT='\(payments):unregister' changed nothing") {
            try mutated.resolve(TwinPayments.Client.self)
        }
    }

    /// Promise (ServiceKey's documentation: long names are shown "by their first 240 and last 40
    /// characters and [their] length ... so that every message naming the key stays readable";
    /// the brief: every report touched today stays bounded for a name of 100,000 characters).
    ///
    /// Before the fix: see the `#expect`: a `.container` service holding one kept in a custom scope whose
    /// name is 100,000 characters long (`Scope(name)`), through a `.graph` service; `verifyWiring()`'s
    /// captive-dependency problem, reworded today, names the scope whole.
    ///
    /// Cause: `VerificationObserver.captive(_:scope:path:holder:direct:)` interpolates
    /// `Scope.description` (Sources/Wiring/Scope.swift: `Scope("\(name)")`, not shortened with
    /// `BoundedText`, unlike `ServiceKey.description`'s names).
    @Test func aCaptiveInAScopeWithAHugeNameIsReportedInBoundedText() throws {
        let scope = Scope(String(repeating: "s", count: 100_000))
        let container = Container()
        container.register(TwinNode.self, name: "leaf") { _ in TwinNode(next: nil) }.scope(scope)
        container.register(TwinNode.self, name: "middle") { r in TwinNode(next: try r.resolve(TwinNode.self, name: "leaf")) }
        container.register(TwinNode.self, name: "top") { r in TwinNode(next: try r.resolve(TwinNode.self, name: "middle")) }
            .scope(.container)
        let report = TestContainer(base: container).verifyWiring()
        let text = String(describing: report)
        #expect(report.problems.map(\.identifier) == ["captive-dependency"], "\(text.prefix(2000))")
        #expect(text.count < 20_000, "verifyWiring()'s report is \(text.count) characters long: \(text.prefix(600))")
    }
}
