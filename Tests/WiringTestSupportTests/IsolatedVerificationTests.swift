import Foundation
import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Fixtures of this file only: `I` keeps them apart from the target's other fixtures.

@MainActor private final class IRouter {
    init(screen: String) {}
}
@MainActor private final class IProfileModel {
    init(userID: String, page: Int?, router: IRouter) {}
}
private final class IScreenFactory: @unchecked Sendable {
    init(router: AnyObject) {}
}
private final class IPool: Sendable {}
private final class IHandler {
    init(requestID: String, pool: IPool) {}
}
private final class ILimiter {
    init(userID: String) {}
}
private final class ISessionToken {
    let value: String
    init(value: String) { self.value = value }
}
private final class IMainThreadOnly: @unchecked Sendable {
    init() { dispatchPrecondition(condition: .onQueue(.main)) }
}

private final class ICache: Sendable {}
private final class IRepository: Sendable {
    init(pool: IPool, cache: ICache) {}
}

private let setup: StaticString = "App/Setup.swift"

/// An app of the main-actor kind: a router and a view model on the main actor, a plain
/// registration forwarding to the router, and a plain one that asserts the main thread.
private func mainActorApp() -> Container {
    let container = Container()
    container.registerMainActor(IRouter.self, file: setup, line: 1) { _ in IRouter(screen: "home") }.scope(.container)
    container.registerMainActor(IProfileModel.self, file: setup, line: 2) { (r, userID: String, page: Int?) in
        try IProfileModel(userID: userID, page: page, router: r.resolve())
    }
    container.register(IScreenFactory.self, file: setup, line: 3) { r in try IScreenFactory(router: r.resolve(IRouter.self)) }
    container.register(IMainThreadOnly.self, file: setup, line: 4) { _ in IMainThreadOnly() }
    return container
}

private func profileSample(_ samples: inout VerificationSamples) {
    samples.add(IProfileModel.self, arguments: "u1", Int?.none)
}

@Suite("Verifying apps on the main actor and async apps")
struct IsolatedVerificationTests {
    @Test @MainActor func verifyingOnTheMainActorBuildsMainActorFactories() {
        let report = TestContainer(base: mainActorApp()).verifyWiring(samples: profileSample)
        #expect(report.isComplete, "\(report)")
        #expect(report.unchecked.isEmpty)
        #expect(Set(report.checked) == [
            ServiceKey(IRouter.self), ServiceKey(IProfileModel.self, arguments: String.self, Int?.self),
            ServiceKey(IScreenFactory.self), ServiceKey(IMainThreadOnly.self),
        ])
    }

    @Test func verifyingAsyncChecksAPlainRegistrationThatForwardsToAMainActorOneAsTheMainActorResolvesIt() async {
        let report = await TestContainer(base: mainActorApp()).verifyWiringAsync(samples: profileSample)
        #expect(report.isComplete, "\(report)")
        #expect(report.problems.isEmpty, "a plain registration forwarding to a main-actor one is no requires-await problem")
        #expect(report.unchecked.isEmpty)
        #expect(report.checked.contains(ServiceKey(IScreenFactory.self)))
        // The factory asserting the main thread ran there: the process is still alive.
        #expect(report.checked.contains(ServiceKey(IMainThreadOnly.self)))
    }

    @Test @MainActor func aMainActorTestPassesMainActorValuesAsSamples() async {
        let token = ISessionToken(value: "t")   // not Sendable: usable here because the check runs on the main actor
        let container = mainActorApp()
        container.registerMainActor(ILimiter.self, file: setup, line: 5) { (_, token: ISessionToken) in
            ILimiter(userID: token.value)
        }
        let report = await TestContainer(base: container).verifyWiringAsync { samples in
            profileSample(&samples)
            samples.add(ILimiter.self, arguments: token)
        }
        #expect(report.isComplete, "\(report)")
    }

    @Test func verifyingAsyncBuildsAsyncRegistrationsWithTheirSampleArguments() async {
        let container = Container()
        container.registerAsync(IPool.self, file: setup, line: 1) { _ in IPool() }.scope(.container)
        container.registerAsync(IHandler.self, file: setup, line: 2) { (r, requestID: String) in
            try await IHandler(requestID: requestID, pool: r.resolve())
        }
        let report = await TestContainer(base: container).verifyWiringAsync { samples in
            samples.add(IHandler.self, arguments: "r-1")
        }
        #expect(report.isComplete, "\(report)")
        #expect(report.checked == [ServiceKey(IPool.self), ServiceKey(IHandler.self, arguments: String.self)])
    }

    @Test func aSynchronousRegistrationWithArgumentsThatNeedsAnAsyncOneIsRequiresAwaitNotAnUnexpectedError() async throws {
        let container = Container()
        container.registerAsync(IPool.self, file: setup, line: 1) { _ in IPool() }.scope(.container)
        container.register(IHandler.self, file: setup, line: 2) { (r, requestID: String) in
            try IHandler(requestID: requestID, pool: r.resolve())
        }
        let report = await TestContainer(base: container).verifyWiringAsync { samples in
            samples.add(IHandler.self, arguments: "r-1")
        }
        let problem = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1)
        #expect(problem.identifier == "requires-await")
        #expect(problem.path == [ServiceKey(IHandler.self, arguments: String.self), ServiceKey(IPool.self)])
    }

    @Test func aKeptScopeWhoseArgumentsAreNotHashableIsAProblemAndAWarning() throws {
        let container = Container()
        container.register(ILimiter.self, file: setup, line: 7) { (_, token: ISessionToken) in ILimiter(userID: token.value) }
            .scope(.container)
        container.register(IPool.self, file: setup, line: 8) { (_, user: String) in IPool() }.scope(.container)
        let test = TestContainer(base: container)
        let report = test.verifyWiring { samples in
            samples.add(ILimiter.self, arguments: ISessionToken(value: "t"))
            samples.add(IPool.self, arguments: "u1")
        }
        let problem = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1, "Hashable arguments keep one instance each: no problem")
        #expect(problem.description == """
            scope-ignores-arguments: ILimiter (arguments: ISessionToken) is kept in .container scope, but its runtime arguments are not all Hashable (ISessionToken), so one instance, made with the first call's arguments, answers every call
              path: ILimiter (arguments: ISessionToken)
              registered at: App/Setup.swift:7 (ILimiter (arguments: ISessionToken))
              fix: make ISessionToken Hashable, so that each distinct set of arguments gets an instance of its own, or register ILimiter as .transient or .graph.
            """)
        let warning = try #require(test.warnings.first { $0.identifier == "scope-ignores-arguments" })
        #expect(warning.key == ServiceKey(ILimiter.self, arguments: ISessionToken.self))
        #expect(warning.message.contains("registered at App/Setup.swift:7"))
        #expect(test.warnings.count { $0.identifier == "scope-ignores-arguments" } == 1)
    }

    @Test func theAsyncManifestListsTheNeedsOfAsyncFactoriesAndTheirMissingDependencies() async {
        let container = Container()
        container.registerAsync(IPool.self, file: setup, line: 1) { _ in IPool() }.scope(.container)
        container.registerAsync(IRepository.self, file: setup, line: 2) { r in
            try await IRepository(pool: r.resolve(), cache: r.resolve())
        }
        let test = TestContainer(base: container)

        let synchronous = test.wiringManifest()
        #expect(synchronous.render().contains("IRepository [.graph] at App/Setup.swift (unchecked)\n"))
        #expect(synchronous.report.problems.isEmpty)

        let manifest = await test.wiringManifestAsync()
        #expect(manifest.render() == """
            Wiring manifest: 2 registrations, 1 problem, 0 unchecked

            IPool [.container] at App/Setup.swift
            IRepository [.graph] at App/Setup.swift (failed)
              needs ICache (missing)
              needs IPool

            missing-dependency: no registration for ICache
              path: IRepository -> ICache
              registered at: App/Setup.swift (IRepository)
              fix: register it with `container.register(ICache.self) { r in … }` (or in a module the container is built from).
            """)
    }

    @Test @MainActor func theAsyncManifestOfAMainActorAppHasNothingUnchecked() async {
        let manifest = await TestContainer(base: mainActorApp()).wiringManifestAsync(samples: profileSample)
        #expect(manifest.report.problems.isEmpty, "\(manifest.render())")
        #expect(manifest.render().hasPrefix("Wiring manifest: 4 registrations, 0 problems, 0 unchecked\n"))
        #expect(manifest.render().hasSuffix("IScreenFactory [.graph] at App/Setup.swift\n  needs IRouter"))
    }
}

@Suite("Where a factory runs, in the trace and in explain")
struct IsolationInTraceTests {
    @Test @MainActor func theTraceAndExplainSayWhereAFactoryRan() async throws {
        let container = mainActorApp()
        container.registerAsync(IPool.self, file: setup, line: 6) { _ in IPool() }.scope(.container)
        let test = TestContainer(base: container)
        _ = try test.resolve(IScreenFactory.self)
        _ = try await test.async.resolve(IPool.self)
        _ = try await test.async.resolve(IPool.self)
        #expect(test.trace.render() == """
            IScreenFactory .graph new #2
            └── IRouter .container new #1 (main actor)
            IPool .container new #3 (async)
            IPool .container cached #3
            """)
        #expect(test.explain(IRouter.self).description == """
            IRouter: answered by the registration in the base at App/Setup.swift:1 (.container)
              factory: runs on the main actor: a synchronous resolve works from main-actor code, `try await test.async.resolve(IRouter.self)` from anywhere
              instance: #1, kept in layer "test"
            """)
        #expect(test.explain(IPool.self).description.contains(
            "  factory: async: resolve it with `try await test.async.resolve(IPool.self)`, or from an async factory\n"))
        #expect(!test.explain(IScreenFactory.self).description.contains("factory:"))
    }

    @Test func anyResolverReachesItsAsyncForm() async throws {
        func openPool(from resolver: any Resolver) async throws -> IPool {
            try await resolver.async.resolve(IPool.self)
        }
        let container = Container()
        container.registerAsync(IPool.self) { _ in IPool() }.scope(.container)
        let fromContainer = try await openPool(from: container)
        let test = TestContainer(base: container)
        test.override(IPool.self) { _ in IPool() }
        let fromTest = try await openPool(from: test)
        #expect(fromContainer !== fromTest)
        #expect(try await openPool(from: container) === fromContainer)
        #expect(test.trace.render() == "IPool .container new #1 (override \"test\")")
    }
}
