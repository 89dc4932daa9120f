import Foundation
import Testing
import Wiring

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

    @Test func aSingletonIsMadeExactlyOnceUnderContention() throws {
        final class Config {}
        final class Service {
            let config: Config
            init(config: Config) { self.config = config }
        }
        let made = Counter()
        let container = Container()
        container.register(Config.self) { _ in
            made.increment()
            usleep(2_000)
            return Config()
        }.scope(.container)
        container.register(Service.self) { r in
            made.increment()
            usleep(2_000)
            return try Service(config: r.resolve())
        }.scope(.container)

        let seen = LockedBox<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let service = try! container.resolve(Service.self)
            let config = try! container.resolve(Config.self)
            #expect(service.config === config)
            seen.set(seen.get() + [ObjectIdentifier(service)])
        }
        #expect(made.value == 2, "one Config and one Service")
        #expect(Set(seen.get()).count == 1)
    }

    @Test func childAndParentSingletonsUnderContentionDoNotDeadlock() throws {
        let parent = Container()
        parent.register(Leaf.self) { _ in usleep(1_000); return Leaf() }.scope(.container)
        let child = Container(parent: parent)
        child.register(Branch.self) { r in try Branch(left: r.resolve(), right: r.resolve()) }.scope(.container)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index.isMultiple(of: 2) {
                _ = try! child.resolve(Branch.self)
            } else {
                _ = try! parent.resolve(Leaf.self)
            }
        }
        #expect(try child.resolve(Branch.self).left === parent.resolve(Leaf.self))
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
