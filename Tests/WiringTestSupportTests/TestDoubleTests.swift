import Testing
import Wiring
import WiringTestSupport

// A test keeps its doubles: plain classes, not Sendable, handed to the test container as they
// are or captured by a factory, with no annotation; the test inspects them afterwards. That this
// file compiles in Swift 6 language mode, with complete concurrency checking, is half the test.

/// A service protocol that does not require `Sendable`, as most apps' do not.
protocol NetworkClient: AnyObject {
    func send(_ request: String) -> String
}

/// A spy as tests write them: mutable state, no lock, so not `Sendable`.
final class SpyNetwork: NetworkClient {
    private(set) var requests: [String] = []

    func send(_ request: String) -> String {
        requests.append(request)
        return "spied"
    }
}

final class LiveNetworkClient: NetworkClient {
    func send(_ request: String) -> String { "live" }
}

final class Uploader {
    let client: any NetworkClient
    init(client: any NetworkClient) { self.client = client }

    func upload(_ name: String) -> String {
        client.send("PUT \(name)")
    }
}

/// An app whose uploader goes through one shared network client.
func makeUploadContainer() -> Container {
    let container = Container()
    container.register(NetworkClient.self) { _ in LiveNetworkClient() }.scope(.container)
    container.register(Uploader.self) { r in try Uploader(client: r.resolve()) }
    return container
}

@Suite struct TestDoubleTests {
    @Test func aReadyDoubleIsWhatEveryResolveGets() throws {
        let test = TestContainer(base: makeUploadContainer())
        let spy = SpyNetwork()
        test.override(NetworkClient.self, instance: spy)

        let uploader = try test.resolve(Uploader.self)
        #expect(uploader.client === spy)
        #expect(try test.resolve(NetworkClient.self) === spy)
        #expect(uploader.upload("notes.txt") == "spied")
        #expect(spy.requests == ["PUT notes.txt"])
        #expect(test.trace.render() == """
            Uploader .graph new #2
            └── NetworkClient .container new #1 (override "test")
            NetworkClient .container cached #1 (override "test")
            """)
    }

    @Test func aFactoryMayCaptureTheDouble() throws {
        let test = TestContainer(base: makeUploadContainer())
        let spy = SpyNetwork()
        test.override(NetworkClient.self) { _ in spy }

        #expect(try test.resolve(Uploader.self).upload("a") == "spied")
        #expect(try test.resolve(Uploader.self).upload("b") == "spied")
        #expect(spy.requests == ["PUT a", "PUT b"])
    }

    @Test func aFactoryWithRuntimeArgumentsMayCaptureTheDouble() throws {
        let test = TestContainer(base: makeUploadContainer())
        test.wiringFindings(.allow("override-of-unregistered"))
        let spy = SpyNetwork()
        test.override(Uploader.self) { (_, prefix: String) in
            _ = spy.send("made for \(prefix)")
            return Uploader(client: spy)
        }

        let uploader = try test.resolve(Uploader.self, arguments: "photos")
        #expect(uploader.client === spy)
        #expect(spy.requests == ["made for photos"])
    }

    @Test func aNamedRegistrationTakesADoubleToo() throws {
        let base = makeUploadContainer()
        base.register(NetworkClient.self, name: "backup") { _ in LiveNetworkClient() }
        let test = TestContainer(base: base)
        let spy = SpyNetwork()
        test.override(NetworkClient.self, name: "backup", instance: spy)

        #expect(try test.resolve(NetworkClient.self, name: "backup") === spy)
        #expect(try test.resolve(NetworkClient.self) is LiveNetworkClient)
    }

    @Test func aPushedLayerTakesDoublesAndDropsThemWhenPopped() throws {
        let test = TestContainer(base: makeUploadContainer())
        let spy = SpyNetwork()
        let other = SpyNetwork()

        let layer = test.pushLayer("spying")
        layer.override(NetworkClient.self, instance: spy)
        layer.override(Uploader.self) { _ in Uploader(client: other) }
        #expect(try test.resolve(NetworkClient.self) === spy)
        #expect(try test.resolve(Uploader.self).upload("a") == "spied")
        test.popLayer()

        #expect(try test.resolve(NetworkClient.self) is LiveNetworkClient)
        #expect(other.requests == ["PUT a"])
        #expect(spy.requests.isEmpty)
    }

    @Test func aTaskLayerTakesDoubles() async throws {
        let test = TestContainer(base: makeUploadContainer())
        let spy = SpyNetwork()

        let sent = try test.withOverrides({ layer in layer.override(NetworkClient.self) { _ in spy } }) {
            try test.resolve(Uploader.self).upload("sync")
        }
        try await test.withOverrides({ layer in layer.override(NetworkClient.self, instance: spy) }) {
            await Task.yield()
            _ = try test.resolve(Uploader.self).upload("async")
        }

        #expect(sent == "spied")
        #expect(spy.requests == ["PUT sync", "PUT async"])
    }

    @Test func aFakeMayBeADoubleTheTestKeeps() throws {
        let test = TestContainer(base: Container())
        let spy = SpyNetwork()
        test.fakes.register(NetworkClient.self) { spy }
        test.wiringFindings(.allow("override-of-unregistered"))
        test.override(Uploader.self) { _ in Uploader(client: spy) }

        #expect(try test.resolve(NetworkClient.self) === spy)
        #expect(try test.resolve(Uploader.self).client === spy)
        #expect(test.fakes.fakedKeys == [ServiceKey(NetworkClient.self)])
    }

    /// The calls of the design's contract, with this file's types.
    @Test func theContractCompiles() throws {
        let test = TestContainer(base: makeUploadContainer())
        let spy = SpyNetwork()                                   // a non-Sendable class the test keeps
        test.override(NetworkClient.self, instance: spy)
        #expect(try test.resolve(NetworkClient.self) === spy)
        test.override(NetworkClient.self) { _ in spy }
        #expect(try test.resolve(Uploader.self).client === spy)
    }

    /// A `@Sendable` factory, as every existing call passes, is still taken as it is.
    @Test func aSendableFactoryStillWorks() throws {
        final class StubNetworkClient: NetworkClient, Sendable {
            func send(_ request: String) -> String { "stubbed" }
        }
        let test = TestContainer(base: makeUploadContainer())
        let makeClient: @Sendable (any Resolver) throws -> any NetworkClient = { _ in StubNetworkClient() }
        test.override(NetworkClient.self, factory: makeClient)
        #expect(try test.resolve(NetworkClient.self) is StubNetworkClient)
        #expect(try test.resolve(Uploader.self).upload("notes.txt") == "stubbed")
    }
}
