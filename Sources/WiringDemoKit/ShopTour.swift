import Wiring
import WiringTestSupport

/// One walk through the shop app on a test container: the calls made, what they gave, and the
/// test container that recorded them, for the report and the graph.
struct ShopTour {
    /// One call the tour made, as the code reads, and what came of it.
    struct Step {
        /// The call, as Swift: `try test.resolve(Cart.self)`.
        let call: String
        /// The error's full text, when the call failed.
        let error: String?
    }

    /// A sentence about the app, shown above the sections.
    let title: String
    /// Where to look next, shown under the title.
    let otherViews: String
    /// The container the app builds; the test container wraps it.
    let container: Container
    /// The test container every call went through.
    let test: TestContainer
    /// The calls, in order.
    let steps: [Step]
    /// Facts checked on the instances, one line each.
    let checks: [String]

    /// The shop app as it ships: two view models, then a cart after the session ends.
    static func shop() -> ShopTour {
        let container = ShopApp.makeContainer()
        let test = TestContainer(base: container)
        var steps: [Step] = []
        var checks: [String] = []
        do {
            let first = try test.resolve(ProductViewModel.self, arguments: 42)
            let second = try test.resolve(ProductViewModel.self, arguments: 7)
            test.resetScope(.session)
            let cartAfterLogout = try test.resolve(Cart.self)
            steps = [
                Step(call: "try test.resolve(ProductViewModel.self, arguments: 42)", error: nil),
                Step(call: "try test.resolve(ProductViewModel.self, arguments: 7)", error: nil),
                Step(call: "test.resetScope(.session)", error: nil),
                Step(call: "try test.resolve(Cart.self)", error: nil),
            ]
            checks = [
                check("both view models share one HTTPClient (.container scope)",
                      first.repository.api.http === second.repository.api.http),
                check("both view models share one Session (.session scope)",
                      first.cart.session === second.cart.session),
                check("the Cart made after resetScope(.session) has a new Session",
                      cartAfterLogout.session !== first.cart.session),
                check("analytics reports to every tracker registered by name: \(first.analytics.vendors)",
                      first.analytics.vendors.count == 2),
            ]
        } catch {
            // The shop's wiring is complete, so this only shows if someone breaks it.
            steps.append(Step(call: "resolving the shop app", error: "\(error)"))
        }
        return ShopTour(
            title: "a small shop app, resolved through a TestContainer.",
            otherViews: "Other views: --mermaid, --dot, --manifest, --broken (all explained by --help).",
            container: container, test: test, steps: steps, checks: checks)
    }

    /// The same app with one registration missing and one cycle: each call fails and says why.
    static func brokenShop() -> ShopTour {
        let container = ShopApp.makeBrokenContainer()
        let test = TestContainer(base: container)
        let steps = [
            attempt("try test.resolve(ProductViewModel.self, arguments: 42)") {
                _ = try test.resolve(ProductViewModel.self, arguments: 42)
            },
            attempt("try test.resolve(Cart.self)") {
                _ = try test.resolve(Cart.self)
            },
        ]
        return ShopTour(
            title: "the shop app with two mistakes (BrokenWiringModule): "
                + "a missing registration and a cycle.",
            otherViews: "Its graph alone: --broken --mermaid, --broken --dot; its manifest: --broken --manifest "
                + "(see --help).",
            container: container, test: test, steps: steps, checks: [])
    }

    /// Verifies the whole graph, giving the view model a sample product ID to be built with.
    func verifyWiring() -> WiringReport {
        test.verifyWiring(samples: Self.samples)
    }

    /// Describes the whole graph, building the view model with the same sample product ID.
    func wiringManifest() -> WiringManifest {
        test.wiringManifest(samples: Self.samples)
    }

    /// What the registrations taking runtime arguments are built with: a product ID.
    private static func samples(_ samples: inout VerificationSamples) {
        samples.add(ProductViewModel.self, arguments: 42)
    }

    private static func attempt(_ call: String, _ body: () throws -> Void) -> Step {
        do {
            try body()
            return Step(call: call, error: nil)
        } catch {
            return Step(call: call, error: "\(error)")
        }
    }

    private static func check(_ fact: String, _ holds: Bool) -> String {
        "\(holds ? "yes" : "NO "): \(fact)"
    }
}
