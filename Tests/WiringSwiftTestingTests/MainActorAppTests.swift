import Testing
import WiringSwiftTesting
import WiringTestHelpers

// The Pantry app (`MainActorApp`, in the shared helpers): a SwiftUI-shaped graph ported from
// Swinject, half of it main-actor view models, resolved root by root and verified complete, on
// the main actor and off it.

@Suite struct MainActorAppTests {
    // MARK: The fixture

    @Test func theRootsAreEveryRegisteredKeyEachOnce() {
        let container = MainActorApp.makeContainer()
        let roots = MainActorApp.roots
        #expect(Set(roots.map(\.key)) == Set(container.registeredKeys))
        #expect(roots.count == container.registeredKeys.count)
        #expect(roots.count >= 105)
    }

    @Test func theAppIsShapedLikeASwiftUIApp() {
        let roots = MainActorApp.roots
        #expect(roots.count { $0.kind == .mainActor } >= 50)
        #expect(roots.count { $0.kind == .async } >= 3)
        #expect(roots.count { $0.kind == .forwarding } >= 9)
        #expect(roots.count { $0.kind == .implements } >= 3)
        let takingArguments = roots.filter { $0.arity > 0 }
        #expect(takingArguments.count == 25)
        #expect(Set(takingArguments.map(\.arity)) == Set(1...9))
        #expect(takingArguments.count { $0.kind == .mainActor } > takingArguments.count / 2)
    }

    // MARK: Resolving every root

    /// The app awaits its launch services once; from then on every registration, the main-actor
    /// ones and the plain ones forwarding them included, resolves synchronously on the main actor.
    @Test @MainActor func everyRegistrationResolvesSynchronouslyOnTheMainActor() async throws {
        let container = MainActorApp.makeContainer()
        try await MainActorApp.launch(container.async)
        #expect(try MainActorApp.resolveEveryRoot(from: container) == MainActorApp.roots.count)
    }

    @Test func everyRegistrationResolvesWithAwaitOffTheMainActor() async throws {
        let container = MainActorApp.makeContainer()
        #expect(try await MainActorApp.resolveEveryRootAsync(from: container.async) == MainActorApp.roots.count)
    }

    // MARK: Sharing

    @Test @MainActor func aContainerViewModelIsOneInstanceUnderEveryKey() throws {
        let container = MainActorApp.makeContainer()
        let cart = try container.resolve(MainActorApp.CartViewModel.self)
        #expect(try container.resolve(MainActorApp.CartViewModel.self) === cart)
        #expect(try container.resolve((any MainActorApp.CartBadgeProviding).self) === cart)
        #expect(try container.resolve((any MainActorApp.TabContent).self, name: "cart") === cart)
        #expect(try container.resolve(MainActorApp.TabBarViewModel.self).cartBadge === cart)
    }

    @Test @MainActor func aGraphDependencyIsSharedWithinOneResolveOnly() throws {
        let container = MainActorApp.makeContainer()
        let checkout = try container.resolve(MainActorApp.CheckoutViewModel.self)
        #expect(checkout.sheets === checkout.coordinator.sheets)                    // main-actor, .graph
        #expect(checkout.checkout.pricing === checkout.checkout.discounts.pricing)  // plain, .graph
        let again = try container.resolve(MainActorApp.CheckoutViewModel.self)
        #expect(again.sheets !== checkout.sheets)
        #expect(again.checkout.pricing !== checkout.checkout.pricing)
        #expect(again.coordinator.cart.app === checkout.coordinator.cart.app)      // .container, 4 levels down
    }

    @Test @MainActor func aContainerRegistrationTakingAStringKeepsOneInstancePerArgument() throws {
        let container = MainActorApp.makeContainer()
        let first = try container.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-1")
        #expect(try container.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-1") === first)
        let second = try container.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-2")
        #expect(second !== first)
        #expect(second.productID == "p-2")
        #expect(try container.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-2") === second)
    }

    @Test func aContainerViewModelResolvedWithAwaitIsOneInstance() async throws {
        let container = MainActorApp.makeContainer()
        let cart = try await container.async.resolve(MainActorApp.CartViewModel.self)
        #expect(try await container.async.resolve(MainActorApp.CartViewModel.self) === cart)
        let detail = try await container.async.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-1")
        #expect(try await container.async.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-1") === detail)
        #expect(try await container.async.resolve(MainActorApp.ProductDetailViewModel.self, arguments: "p-2") !== detail)
    }

    // MARK: Verifying the wiring

    /// A synchronous check on the main actor builds every main-actor factory and every plain one
    /// forwarding to it; only what must be awaited is left to `verifyWiringAsync`.
    @Test @MainActor func aSynchronousCheckOnTheMainActorLeavesOnlyTheAwaitedRegistrations() {
        let test = TestContainer(base: MainActorApp.makeContainer())
        let report = test.verifyWiring(samples: addMainActorAppSamples)
        #expect(report.problems.isEmpty, "\(report)")
        #expect(Set(report.unchecked) == MainActorApp.awaitedKeys, "\(report)")
        #expect(report.checked.count == MainActorApp.roots.count - MainActorApp.awaitedKeys.count)
    }

    /// A synchronous check cannot run `registerAsync` factories: with the launch services
    /// replaced by in-memory ones, it can check everything else.
    @Test @MainActor func theWiringIsCompleteOnTheMainActorWithTheLaunchServicesInMemory() {
        let test = TestContainer(base: MainActorApp.makeContainer(launchServicesInMemory: true))
        let report = test.verifyWiring(samples: addMainActorAppSamples)
        expectComplete(report)
    }

    @Test func theWiringIsCompleteWithAwaitOffTheMainActor() async {
        let test = TestContainer(base: MainActorApp.makeContainer())
        let report = await test.verifyWiringAsync(samples: addMainActorAppSamples)
        expectComplete(report)
    }

    @Test @MainActor func theWiringIsCompleteWithAwaitOnTheMainActor() async {
        let test = TestContainer(base: MainActorApp.makeContainer())
        let report = await test.verifyWiringAsync(samples: addMainActorAppSamples)
        expectComplete(report)
    }
}

/// Expects a report of the whole app, complete: every root checked, no problem, nothing unchecked.
private func expectComplete(_ report: WiringReport, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(report.isComplete, "\(report)", sourceLocation: sourceLocation)
    #expect(report.problems.isEmpty, "\(report)", sourceLocation: sourceLocation)
    #expect(report.unchecked.isEmpty, "\(report)", sourceLocation: sourceLocation)
    let notChecked = MainActorApp.roots.map(\.key).filter { !report.checked.contains($0) }
    #expect(notChecked.isEmpty, "not checked: \(notChecked)", sourceLocation: sourceLocation)
}

/// Adds the app's sample arguments (those of `MainActorApp.roots`) to a verification's samples.
private func addMainActorAppSamples(_ samples: inout VerificationSamples) {
    let collector = SampleCollector(samples)
    MainActorApp.addSamples(to: collector)
    samples = collector.samples
}

/// Hands the fixture's samples to `VerificationSamples`, which the fixture's target cannot see.
private final class SampleCollector: MainActorApp.SampleSink {
    var samples: VerificationSamples

    init(_ samples: VerificationSamples) {
        self.samples = samples
    }

    func add<Service, each Argument>(_ serviceType: Service.Type, name: String?, arguments: repeat each Argument) {
        samples.add(serviceType, name: name, arguments: repeat each arguments)
    }
}
