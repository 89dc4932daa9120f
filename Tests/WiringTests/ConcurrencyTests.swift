import Foundation
import Testing
import Wiring
import WiringTestHelpers

@Suite("Thread safety")
struct ConcurrencyTests {
    @Test func concurrentRegisterAndResolveFromManyTasks() async throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.container)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        container.register(Animal.self, name: "\(task)-\(i)") { _ in Cat(name: "\(i)") }
                        _ = try container.resolve(Leaf.self)
                        #expect(try container.resolve(Animal.self, name: "\(task)-\(i)").name == "\(i)")
                        _ = try container.resolveAll(Animal.self)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(container.registeredKeys.count == 1 + 8 * 200)
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

    @Test func weakAndCustomScopesUnderContention() async throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.weak)
        container.register(Cat.self) { _ in Cat() }.scope(.session)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        _ = try? container.resolve(Leaf.self)
                        _ = try? container.resolve(Cat.self)
                        container.resetScope(.session)
                    }
                }
            }
        }
        #expect(try container.resolve(Cat.self) === container.resolve(Cat.self))
    }
}
