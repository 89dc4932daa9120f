import Foundation
import Testing
import Wiring
import WiringTestHelpers

@Suite("Thread safety")
struct ConcurrencyTests {
    /// 8 threads, released together, each registering 100 services while resolving them, a
    /// singleton and the whole list: no resolve fails or answers another's registration.
    @Test func concurrentRegisterAndResolveFromManyThreads() async throws {
        let leavesMade = LockedCounter()
        let container = Container()
        container.register(Leaf.self) { _ in
            leavesMade.increment()
            return Leaf()
        }.scope(.container)
        let failures = LockedCounter()
        let wrongAnswers = LockedCounter()
        let leaves = IdentityCollector()
        let finished = await raceThreadsAsync(8) { thread in
            for i in 0..<100 {
                container.register(Animal.self, name: "\(thread)-\(i)") { _ in Cat(name: "\(i)") }
                do {
                    leaves.insert(try container.resolve(Leaf.self))
                    if try container.resolve(Animal.self, name: "\(thread)-\(i)").name != "\(i)" { wrongAnswers.increment() }
                    _ = try container.resolveAll(Animal.self)
                } catch {
                    failures.increment()
                }
            }
        }
        try #require(finished, "the threads did not finish in time (a deadlock?)")
        #expect(failures.value == 0)
        #expect(wrongAnswers.value == 0)
        #expect(leavesMade.value == 1)
        #expect(leaves.distinctCount == 1)
        #expect(container.registeredKeys.count == 1 + 8 * 100)
        #expect(try container.resolveAll(Animal.self).count == 8 * 100)
    }

    /// A singleton and the singleton it depends on, each made once per container however many
    /// threads ask at once: 8 threads, released together, in each of many fresh containers
    /// (`FactorySpeed.rounds`).
    @Test(arguments: FactorySpeed.allCases)
    func aSingletonAndItsSingletonDependencyAreEachMadeOnceUnderContention(speed: FactorySpeed) async throws {
        final class Config {}
        final class Service {
            let config: Config
            init(config: Config) { self.config = config }
        }
        try await rounds(speed.rounds) { round in
            let configsMade = LockedCounter()
            let servicesMade = LockedCounter()
            let container = Container()
            container.register(Config.self) { _ in
                configsMade.increment()
                speed.work()
                return Config()
            }.scope(.container)
            container.register(Service.self) { r in
                servicesMade.increment()
                speed.work()
                return try Service(config: r.resolve())
            }.scope(.container)

            let services = IdentityCollector()
            let configs = IdentityCollector()
            let failures = LockedCounter()
            let mismatches = LockedCounter()
            let finished = await raceThreadsAsync(8) { index in
                do {
                    // Half ask for the service first, half for its dependency.
                    let service: Service
                    let config: Config
                    if index.isMultiple(of: 2) {
                        service = try container.resolve(Service.self)
                        config = try container.resolve(Config.self)
                    } else {
                        config = try container.resolve(Config.self)
                        service = try container.resolve(Service.self)
                    }
                    if service.config !== config { mismatches.increment() }
                    services.insert(service)
                    configs.insert(config)
                } catch {
                    failures.increment()
                }
            }
            try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(
                servicesMade.value == 1 && configsMade.value == 1,
                "round \(round): made \(servicesMade.value) Services and \(configsMade.value) Configs, not one of each")
            try #require(
                services.distinctCount == 1 && configs.distinctCount == 1,
                "round \(round): handed out \(services.distinctCount) Services and \(configs.distinctCount) Configs")
            try #require(mismatches.value == 0, "round \(round): \(mismatches.value) Services held another Config")
        }
    }

    /// Threads resolving a child's singleton (which needs the parent's) and the parent's at once
    /// finish: bounded, so that a deadlock fails the test instead of hanging the suite.
    @Test(arguments: FactorySpeed.allCases)
    func childAndParentSingletonsUnderContentionDoNotDeadlock(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let leavesMade = LockedCounter()
            let parent = Container()
            parent.register(Leaf.self) { _ in
                leavesMade.increment()
                speed.work()
                return Leaf()
            }.scope(.container)
            let child = Container(parent: parent)
            child.register(Branch.self) { r in try Branch(left: r.resolve(), right: r.resolve()) }.scope(.container)
            let leaves = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(8) { index in
                do {
                    if index.isMultiple(of: 2) {
                        let branch = try child.resolve(Branch.self)
                        leaves.insert(branch.left)
                        leaves.insert(branch.right)
                    } else {
                        leaves.insert(try parent.resolve(Leaf.self))
                    }
                } catch {
                    failures.increment()
                }
            }
            try #require(finished, "round \(round): the threads did not finish in time: a deadlock")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(leavesMade.value == 1, "round \(round): the parent's Leaf was made \(leavesMade.value) times")
            try #require(leaves.distinctCount == 1, "round \(round): \(leaves.distinctCount) different Leaves handed out")
            #expect(try child.resolve(Branch.self).left === parent.resolve(Leaf.self))
        }
    }

    /// 8 threads, released together, resolving a `.weak` and a custom-scope service while
    /// resetting that scope: no resolve fails, none deadlocks, and the scope still shares.
    @Test func weakAndCustomScopesUnderContention() async throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.weak)
        container.register(Cat.self) { _ in Cat() }.scope(.session)
        let failures = LockedCounter()
        let finished = await raceThreadsAsync(8) { _ in
            for _ in 0..<200 {
                do {
                    _ = try container.resolve(Leaf.self)
                    _ = try container.resolve(Cat.self)
                } catch {
                    failures.increment()
                }
                container.resetScope(.session)
            }
        }
        try #require(finished, "the threads did not finish in time (a deadlock?)")
        #expect(failures.value == 0)
        let cat = try container.resolve(Cat.self)
        #expect(try container.resolve(Cat.self) === cat)
        container.resetScope(.session)
        #expect(try container.resolve(Cat.self) !== cat)
        let held = try container.resolve(Leaf.self)
        #expect(try container.resolve(Leaf.self) === held)
    }
}
