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
    /// Installs them in a layer; `nil` for fakes, which belong to the container, not to a layer.
    let toLayer: (@Sendable (OverrideLayer) -> Void)?

    var sourceLocation: SourceLocation {
        let fileID = "\(file)"
        let fileName = fileID.split(separator: "/").last.map(String.init) ?? fileID
        return SourceLocation(fileID: fileID, filePath: fileName, line: Int(line), column: 1)
    }

    func apply(to container: TestContainer) {
        toContainer(container)
    }

    /// Installs them in `layer`, a layer of `container` that only the test's task sees; fakes go
    /// into the container itself, as fakes are not layered.
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

    func apply(to container: TestContainer) {
        doubles.apply(to: container)
        applied.withLock { $0 = true }
    }

    /// The doubles waiting for a container, outermost first.
    @TaskLocal static var current: [PendingTestDoubles] = []

    /// The container `.testContainer` made for the running test case, which no other test sees.
    @TaskLocal static var ownedContainer: TestContainer?
}
