import Testing
import Wiring
import WiringTestSupport

/// What a ``TestDoubleTrait`` installs, into a test container or into a layer of one.
struct TestDoubles: Sendable {
    /// The trait as written, for messages: "`.override(Network)`".
    let description: String
    let file: StaticString
    let line: UInt
    let toContainer: @Sendable (TestContainer) -> Void
    /// Installs them in a layer; `nil` for what installs nothing.
    let toLayer: (@Sendable (OverrideLayer) -> Void)?

    var sourceLocation: SourceLocation {
        let fileID = "\(file)"
        let fileName = fileID.split(separator: "/").last.map(String.init) ?? fileID
        return SourceLocation(fileID: fileID, filePath: fileName, line: Int(line), column: 1)
    }

    func apply(to container: TestContainer) {
        toContainer(container)
    }

    /// Installs them in `layer`, a layer of `container` that only the test's task sees.
    func apply(to layer: OverrideLayer, of container: TestContainer) {
        if let toLayer { toLayer(layer) } else { toContainer(container) }
    }

    /// The doubles, waiting for a `.testContainer` trait to make the container they go into.
    func pending() -> PendingTestDoubles {
        PendingTestDoubles(doubles: self)
    }
}

/// Test doubles listed outside the `.testContainer` trait that makes the container they belong in.
final class PendingTestDoubles: Sendable {
    private let doubles: TestDoubles
    private let applied = LockedState(false)

    init(doubles: TestDoubles) {
        self.doubles = doubles
    }

    /// Whether a container was made for them, so they were installed.
    var wasApplied: Bool { applied.withLock { $0 } }

    func apply(to owned: OwnedTestContainer) {
        owned.apply(doubles)
        applied.withLock { $0 = true }
    }

    /// The doubles waiting for a container, outermost first.
    @TaskLocal static var current: [PendingTestDoubles] = []

    /// The container `.testContainer` made for the running test case, which no other test sees.
    @TaskLocal static var ownedContainer: OwnedTestContainer?
}

/// The test container a `.testContainer` trait made for the running test case, and the doubles
/// applied to it, in order: a `.testContainer` nested inside it (a test's inside its suite's)
/// applies them to its own container first, so that the test builds on its suite.
final class OwnedTestContainer: Sendable {
    let container: TestContainer
    private let applied = LockedState<[TestDoubles]>([])

    init(_ container: TestContainer) {
        self.container = container
    }

    /// Applies `doubles` to the container, and remembers them for a nested `.testContainer`.
    func apply(_ doubles: TestDoubles) {
        doubles.apply(to: container)
        applied.withLock { $0.append(doubles) }
    }

    /// The doubles applied so far, in order.
    var appliedDoubles: [TestDoubles] { applied.withLock { $0 } }
}
