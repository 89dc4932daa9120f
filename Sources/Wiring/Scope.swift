/// How long a resolved instance lives, and who shares it.
///
/// | Scope | Instances |
/// | --- | --- |
/// | ``transient`` | a new one every time it is resolved |
/// | ``graph`` | one per top-level `resolve` call, shared at every depth of that call (the default) |
/// | ``container`` | one in the container that holds the registration, shared with its children |
/// | ``weak`` | shared while something else holds it, made again once it is released |
/// | `Scope("session")` | like ``container``, until `container.resetScope(.session)` drops them |
///
/// ```swift
/// extension Scope { static let session = Scope("session") }
/// container.register(Session.self) { _ in Session() }.scope(.session)
/// container.resetScope(.session)   // the next resolve makes a new Session
/// ```
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    package enum Lifetime: Hashable, Sendable {
        case transient, graph, container, weak, custom
    }

    /// The scope's name, as shown in traces and reports.
    public let name: String
    package let lifetime: Lifetime

    package init(name: String, lifetime: Lifetime) {
        self.name = name
        self.lifetime = lifetime
    }

    /// A custom scope: instances are shared in the registering container until
    /// `resetScope(_:)` drops them.
    /// - Parameter name: The scope's name; two scopes with the same name are the same scope.
    public init(_ name: String) {
        self.init(name: name, lifetime: .custom)
    }

    /// A new instance on every resolution.
    public static let transient = Scope(name: "transient", lifetime: .transient)
    /// One instance per top-level `resolve` call, shared by everything that call builds.
    public static let graph = Scope(name: "graph", lifetime: .graph)
    /// One instance in the registering container, shared with its child containers.
    public static let container = Scope(name: "container", lifetime: .container)
    /// One instance shared while something else holds a strong reference to it. Classes only.
    public static let weak = Scope(name: "weak", lifetime: .weak)

    /// `.graph`, `.container` and so on for the built-in scopes; `Scope("session")` for a custom one.
    public var description: String {
        lifetime == .custom ? "Scope(\"\(name)\")" : ".\(name)"
    }

    /// Whether instances are kept by a container (as opposed to per call or not at all).
    package var isStoredInContainer: Bool {
        switch lifetime {
        case .container, .weak, .custom: true
        case .transient, .graph: false
        }
    }
}
