import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// The calls of the design's contract, exactly as written there and in the documentation.

@Test func contract() throws {
    let container = makeAppContainer()
    container.register(Database.self) { _ in Database() }.scope(.container)
    container.register(Logger.self) { _ in ConsoleLogger() }
    let test = TestContainer(base: container)
    test.override(Network.self) { _ in FakeNetwork() }
    _ = try test.resolve(Checkout.self)
    _ = try test.resolve(Database.self)
    // The folder of the committed snapshots, so that the assertions given it compare with them too.
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/ContractTests").path

    let network = assertResolves(Network.self, in: test)          // the instance, or nil after a failure
    assertResolves(Network.self, to: FakeNetwork.self, in: test)  // resolves, and to that concrete type
    assertScope(Database.self, is: .container, in: test)          // checks the behaviour, not the label
    assertWiringComplete(test)                                    // every problem of verifyWiring()
    assertNoUnusedRegistrations(test, ignoring: [ServiceKey(Logger.self)])
    assertTraceSnapshot(test.trace, named: "checkout")            // __Snapshots__/<TestFile>/ beside the test
    assertTraceSnapshot(test.trace, named: "checkout", snapshotDirectory: dir)
    assertNoWiringWarnings(test)                                  // every warning of test.warnings
    assertWiringSnapshot(test, named: "app")                      // the manifest, kept like a trace snapshot
    assertWiringSnapshot(test, named: "app", snapshotDirectory: dir)
    let scratch = try TemporaryDirectory()
    _ = expectFailures { assertWiringSnapshot(test, named: "app", snapshotDirectory: scratch.path, record: true) }

    #expect(network is FakeNetwork)
}
