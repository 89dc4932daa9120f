import Foundation

/// Objects held weakly, added and counted from any thread: whether what a container or a layer
/// made has been let go of.
public final class WeakObjects: @unchecked Sendable {
    private final class Reference {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private let lock = NSLock()
    private var references: [Reference] = []

    public init() {}

    public func add(_ object: AnyObject) {
        lock.withLock { references.append(Reference(object)) }
    }

    /// How many of the objects added are still alive.
    public var alive: Int { lock.withLock { references.filter { $0.object != nil }.count } }
}
