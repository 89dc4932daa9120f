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

    /// `.graph`, `.container` and so on for the built-in scopes; `Scope("session")` for a custom one,
    /// a name of more than 300 characters shown by its ends and its length.
    public var description: String {
        lifetime == .custom ? "Scope(\(BoundedText.literal(name)))" : ".\(name)"
    }

    /// What this scope's instances do; see ``Policy``.
    package var policy: Policy { lifetime.policy }
}

extension Scope {
    /// What a lifetime keeps, where, how it is reset and what it may depend on, said once. The
    /// resolution step, the test container's layers, the verification sandbox, `assertScope` and
    /// the captive-dependency rules all ask this instead of switching on the lifetime.
    package struct Policy: Sendable, Equatable {
        /// Whether a store (the registering container, a test layer) keeps the instance after
        /// the resolve that made it: `.container`, `.weak` and custom scopes.
        package let keepsInstances: Bool
        /// Whether the store holds it only while something else does (`.weak`).
        package let holdsWeakly: Bool
        /// Whether a second request within one top-level resolve gets the same instance.
        package let sharedWithinResolve: Bool
        /// Whether `resetScope(scope)` drops the kept instances (every kept scope, by name).
        package let isReset: Bool
        /// How long an instance lives, longest highest, for captive dependencies; `nil` for
        /// `.graph`, which lives exactly as long as the resolve that made it.
        package let lifespanRank: Int?
        /// Whether an instance may be meant to live shorter than something that holds it (and
        /// so be a captive dependency of a longer-lived one).
        package let mayBeCaptive: Bool

        /// The step's question to the store, given what it holds for a registration (`stored`):
        /// the instance's `InstanceBox`, or for `.weak` the object itself while it lives (now
        /// held by the caller, so it cannot go before it is read); `nil` for a lifetime that
        /// keeps nothing. A top-level call that no resolution on its thread continues asks it
        /// under the lock that found the entry, and an instance found is all the step would give
        /// it: no path to extend, no `.graph` instance, no observer to tell (a container has none).
        func keptObject(_ stored: @autoclosure () -> AnyObject?) -> AnyObject? {
            guard keepsInstances, let stored = stored() else { return nil }
            guard holdsWeakly else { return stored }
            return (stored as? WeakInstanceBox)?.object
        }

        /// Whether an instance held by one of `holder`'s is kept longer than its own scope means:
        /// a transient, weak or custom instance inside a longer-lived kept one.
        package func isCaptive(heldBy holder: Policy) -> Bool {
            guard holder.keepsInstances, mayBeCaptive, let held = lifespanRank, let holding = holder.lifespanRank else {
                return false
            }
            return held < holding
        }
    }
}

extension Scope.Lifetime {
    package var policy: Scope.Policy {
        switch self {
        case .transient:
            Scope.Policy(
                keepsInstances: false, holdsWeakly: false, sharedWithinResolve: false, isReset: false, lifespanRank: 0,
                mayBeCaptive: true)
        case .graph:
            Scope.Policy(
                keepsInstances: false, holdsWeakly: false, sharedWithinResolve: true, isReset: false, lifespanRank: nil,
                mayBeCaptive: false)
        case .weak:
            Scope.Policy(
                keepsInstances: true, holdsWeakly: true, sharedWithinResolve: true, isReset: true, lifespanRank: 1,
                mayBeCaptive: true)
        case .custom:
            Scope.Policy(
                keepsInstances: true, holdsWeakly: false, sharedWithinResolve: true, isReset: true, lifespanRank: 2,
                mayBeCaptive: true)
        case .container:
            Scope.Policy(
                keepsInstances: true, holdsWeakly: false, sharedWithinResolve: true, isReset: true, lifespanRank: 3,
                mayBeCaptive: false)
        }
    }
}
