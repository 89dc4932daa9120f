import Testing
import Wiring
import WiringTestSupport

/// How many locks a recorded resolve takes: each is a point where threads meet, and the count
/// is the shape of the path (debug builds count them; release builds take the same locks).
@Suite struct LockCountTests {
    final class Network: Sendable {
        let label: String
        init(_ label: String) { self.label = label }
    }

    final class Service: Sendable {
        let network: Network
        init(network: Network) { self.network = network }
    }

    #if DEBUG
    /// A service whose dependency a pushed layer overrides, resolved through a recording test
    /// container (after a first resolve, so that the recorder pool is warm): at most four.
    @Test func aRecordedResolveOfAServiceWithAnOverriddenDependencyTakesAtMostFourLocks() throws {
        let locks = try locksOfASecondRecordedResolve(scope: .graph)
        #expect(locks.count <= 4, "a recorded resolve took \(locks.count) locks: \(locks)")
    }

    /// The same with both kept for the container: the second recorded resolve finds the
    /// service the first made with the override on the layer's shelf of the store, with what it
    /// was made with beside it (one look, one lock), and makes nothing.
    @Test func aRecordedResolveOfAKeptServiceTakesAtMostFourLocks() throws {
        let locks = try locksOfASecondRecordedResolve(scope: .container)
        #expect(locks.count <= 4, "a recorded resolve took \(locks.count) locks: \(locks)")
    }

    /// The locks the second resolve of `Service` takes through a test container whose pushed
    /// layer overrides its `Network`, both registered (and overridden) in `scope`.
    private func locksOfASecondRecordedResolve(scope: Scope) throws -> [String] {
        let base = Container()
        base.register(Network.self) { _ in Network("live") }.scope(scope)
        base.register(Service.self) { resolver in Service(network: try resolver.resolve()) }.scope(scope)
        let test = TestContainer(base: base)
        test.pushLayer("offline")
        defer { _ = test.popLayer() }
        test.override(Network.self) { _ in Network("offline") }.scope(scope)
        _ = try test.resolve(Service.self)

        var service: Service?
        let locks = try LockAcquisitions.counting { service = try test.resolve(Service.self) }

        #expect(service?.network.label == "offline")
        return locks
    }

    /// A kept instance made before three layers were pushed is found on the root's shelf under
    /// them with one look in the test container's one store: the resolve takes the locks it takes
    /// with no layer pushed, not one more per layer looked through.
    @Test func aKeptInstanceUnderThreePushedLayersTakesNoMoreLocksThanWithNone() throws {
        let base = Container()
        base.register(Network.self) { _ in Network("live") }.scope(.container)
        let test = TestContainer(base: base)
        let made = try test.resolve(Network.self)
        _ = try test.resolve(Network.self)
        let withNone = try LockAcquisitions.counting { _ = try test.resolve(Network.self) }

        for name in ["a", "b", "c"] { test.pushLayer(name) }
        defer { for _ in 0..<3 { _ = test.popLayer() } }
        _ = try test.resolve(Network.self)
        var found: Network?
        let underThree = try LockAcquisitions.counting { found = try test.resolve(Network.self) }

        #expect(found === made)
        #expect(underThree == withNone, "with no layer: \(withNone); under three: \(underThree)")
    }

    /// A plain container's resolve of the same graph takes one: the container's, for the entry
    /// and its published registry.
    @Test func aPlainResolveTakesOneLock() throws {
        let container = Container()
        container.register(Network.self) { _ in Network("live") }
        container.register(Service.self) { resolver in Service(network: try resolver.resolve()) }
        _ = try container.resolve(Service.self)

        let locks = try LockAcquisitions.counting { _ = try container.resolve(Service.self) }

        #expect(locks.count == 1, "\(locks)")
    }
    #endif
}
