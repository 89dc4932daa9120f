import Testing
import Wiring

/// The async step follows the synchronous step's scope rules: the same errors, hooks and
/// publication, whichever path makes the instance.
@Suite("Async step: the synchronous step's rules")
struct AsyncStepParityTests {
    struct Point { var x = 0 }

    final class Node {
        var peer: Peer?
    }

    final class Peer {
        let node: Node
        init(node: Node) { self.node = node }
    }

    struct HookFailed: Error {}

    @Test func weakScopeOnAStructIsTheSameErrorOnBothPaths() async throws {
        let container = Container()
        container.register(Point.self, name: "sync") { _ in Point() }.scope(.weak)
        container.registerAsync(Point.self, name: "async") { _ in Point() }.scope(.weak)
        let sync = #expect(throws: ResolutionError.self) { try container.resolve(Point.self, name: "sync") }
        let async = await #expect(throws: ResolutionError.self) { try await container.async.resolve(Point.self, name: "async") }
        #expect(sync?.identifier == "weak-scope-requires-class")
        #expect(async?.identifier == "weak-scope-requires-class")
        // The key is on the path once, as in the synchronous step.
        #expect(async?.path.filter { $0.name == "async" }.count == 1)
    }

    @Test func aThrowingHookOnAnAsyncSingletonLeavesNothingCachedAndFailsAgain() async throws {
        let container = Container()
        let attempts = Counter()
        container.registerAsync(Node.self) { _ in Node() }
            .scope(.container)
            .initCompleted { _, _ in
                attempts.increment()
                throw HookFailed()
            }
        for _ in 0..<2 {
            let error = await #expect(throws: ResolutionError.self) { try await container.async.resolve(Node.self) }
            #expect(error?.identifier == "factory-failed")
        }
        #expect(attempts.value == 2)
    }

    @Test func aBackReferenceSetInAnAsyncSingletonsHookClosesTheCycle() async throws {
        let container = Container()
        container.registerAsync(Node.self) { _ in Node() }
            .scope(.container)
            .initCompleted { r, node in node.peer = try r.resolve(Peer.self) }
        container.register(Peer.self) { r in try Peer(node: r.resolve()) }
        let node = try await container.async.resolve(Node.self)
        #expect(node.peer?.node === node)
        #expect(try await container.async.resolve(Node.self) === node)
    }

    /// One `.graph` instance per resolve, whichever path made it: an awaited step and a
    /// synchronous step of the same async resolve (a plain factory it runs) get the same one,
    /// whether the instance's own factory is async or plain.
    @Test(arguments: [true, false])
    func aGraphInstanceIsSharedBetweenTheAsyncAndSynchronousStepsOfOneResolve(nodeFactoryIsAsync: Bool) async throws {
        final class Holder {
            let node: Node
            init(node: Node) { self.node = node }
        }
        final class Pair {
            let awaited: Node, fromSynchronousStep: Node
            init(awaited: Node, fromSynchronousStep: Node) {
                (self.awaited, self.fromSynchronousStep) = (awaited, fromSynchronousStep)
            }
        }
        let made = Counter()
        let container = Container()
        if nodeFactoryIsAsync {
            container.registerAsync(Node.self) { _ in made.increment(); return Node() }.scope(.graph)
        } else {
            container.register(Node.self) { _ in made.increment(); return Node() }.scope(.graph)
        }
        // A synchronous step: its factory resolves Node without `await`.
        container.register(Holder.self) { r in try Holder(node: r.resolve()) }
        container.registerAsync(Pair.self) { r in
            let awaited: Node = try await r.resolve()
            let holder: Holder = try await r.resolve()
            return Pair(awaited: awaited, fromSynchronousStep: holder.node)
        }
        let pair = try await container.async.resolve(Pair.self)
        #expect(pair.awaited === pair.fromSynchronousStep)
        #expect(made.value == 1)
        #expect(try await container.async.resolve(Pair.self).awaited !== pair.awaited, "a new resolve, a new instance")
        #expect(made.value == 2)
    }

    @Test func anOptionalOfAnAsyncServiceIsAwaited() async throws {
        let container = Container()
        container.registerAsync(Node.self) { _ in Node() }
        let node = try await container.async.resolve(Node?.self)
        #expect(node != nil)
        #expect(try await container.async.resolve(Peer?.self) == nil)
        // Synchronously, the wrapped factory still cannot run: an error, not nil.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Node?.self) }
        #expect(error?.identifier == "requires-await")
    }

    @Test func anOptionalWhoseDependencyIsMissingStillThrowsWhenAwaited() async throws {
        let container = Container()
        container.registerAsync(Peer.self) { r in try Peer(node: await r.resolve()) }
        let error = await #expect(throws: ResolutionError.self) { try await container.async.resolve(Peer?.self) }
        #expect(error?.identifier == "not-registered")
        #expect(error?.key == ServiceKey(Node.self))
    }
}
