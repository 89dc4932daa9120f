import Wiring

/// Every resolution made through a ``TestContainer``, as a tree per top-level request.
///
/// `render()` gives deterministic text for snapshots: instances are numbered in the order the
/// test container made them, from `#1` for the first this trace shows (so that a snapshot does
/// not depend on the tests that ran before, nor on what `clearTrace()` cleared), never shown by
/// address, and nothing depends on timing.
///
/// ```text
/// Checkout .graph new #3
/// ├── Cart .graph new #2 (override "offline")
/// │   └── Network .container cached #1
/// └── Payment failed: not registered
/// ```
public struct ResolutionTrace: Sendable, CustomStringConvertible {
    /// One resolution step: a key, where its registration came from, and what it gave.
    public struct Node: Sendable {
        /// The key requested.
        public let key: ServiceKey
        /// The scope of the registration used; `nil` when none was found.
        public let scope: Scope?
        /// Where the registration used came from.
        public let source: Source
        /// How the instance was obtained, or why it was not.
        public internal(set) var outcome: Outcome
        /// The instance's number in this test container, in order of creation, if known.
        public internal(set) var instance: Int?
        /// The resolutions this one made, in order.
        public internal(set) var children: [Node] = []
        /// Problems noticed at this step.
        public internal(set) var warnings: [String] = []
        /// Why the step did what it did when that is not obvious: a kept instance made again
        /// because an override changed something it was made with.
        public internal(set) var notes: [String] = []
        /// Where the registration's factory runs, when a synchronous resolve cannot run it
        /// anywhere: on the main actor, or awaited; `nil` for a plain factory.
        public internal(set) var isolation: Isolation?
        package let entryID: Int?

        package init(key: ServiceKey, scope: Scope?, source: Source, outcome: Outcome, entryID: Int?) {
            self.key = key
            self.scope = scope
            self.source = source
            self.outcome = outcome
            self.entryID = entryID
        }

        /// This node and everything below it, depth first.
        public var allNodes: [Node] {
            [self] + children.flatMap(\.allNodes)
        }
    }

    /// Where the registration a step used came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// A registration of the base container (or of the test container itself).
        case registration(RegistrationSite)
        /// An override in the named layer.
        case override(layer: String, site: RegistrationSite)
        /// A registration of the module that replaces another in the named layer
        /// (`test.replace(NetworkModule.self, with: FakeNetworkModule())`).
        case module(name: String, replaces: String, layer: String, site: RegistrationSite)
        /// A default from `fakes`, used because nothing is registered (or what is registered is
        /// live-only).
        case fake(RegistrationSite)
        /// An unregistered type the container builds itself: `Injectable`, `Provider`, `Lazy`.
        case implicit
        /// Nothing was registered.
        case missing

        /// Where the registration came from, in words: `override "offline" at Tests/CheckoutTests.swift:14`.
        public var description: String {
            switch self {
            case .registration(let site): "registered at \(site)"
            case .override(let layer, let site): "override \"\(layer)\" at \(site)"
            case .module(let name, let replaces, let layer, let site):
                "module \(name), replaces \(replaces), in layer \"\(layer)\" at \(site)"
            case .fake(let site): "fake at \(site)"
            case .implicit: "implicit"
            case .missing: "not registered"
            }
        }
    }

    /// Where a factory that a synchronous resolve cannot always run runs: the registration's
    /// own (`RegistrationInfo.isolation`), from the core.
    public typealias Isolation = FactoryIsolation

    /// How a step obtained its instance.
    public enum Outcome: Sendable, Equatable {
        /// The factory ran.
        case created
        /// A stored scope already held it.
        case cached
        /// An earlier step of the same top-level resolve made it (`.graph`).
        case sharedInGraph
        /// The step failed; the error's stable identifier, such as `not-registered`.
        case failed(String)
    }

    /// The top-level resolutions, in the order they finished.
    public internal(set) var roots: [Node]

    package init(roots: [Node]) {
        self.roots = roots
    }

    /// Every step of every resolution, depth first.
    public var allNodes: [Node] {
        roots.flatMap(\.allNodes)
    }

    /// The trace as an indented tree, one line per step, the same on every run.
    public func render() -> String {
        // The test container's numbers, in order, become 1, 2, 3… for this trace.
        let numbers = Set(allNodes.compactMap(\.instance)).sorted()
        let renumbered = Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, $0 + 1) })
        var lines: [String] = []
        for root in roots {
            render(root, renumbered: renumbered, prefix: "", childPrefix: "", into: &lines)
        }
        return lines.joined(separator: "\n")
    }

    /// The same text as ``render()``.
    public var description: String { render() }

    private func render(
        _ node: Node, renumbered: [Int: Int], prefix: String, childPrefix: String, into lines: inout [String]
    ) {
        lines.append(prefix + Self.line(for: node, number: node.instance.flatMap { renumbered[$0] }))
        for note in node.notes {
            lines.append(childPrefix + (node.children.isEmpty ? "    " : "│   ") + "↻ " + note)
        }
        for warning in node.warnings {
            lines.append(childPrefix + (node.children.isEmpty ? "    " : "│   ") + "⚠︎ " + warning)
        }
        for (index, child) in node.children.enumerated() {
            let isLast = index == node.children.count - 1
            render(
                child, renumbered: renumbered, prefix: childPrefix + (isLast ? "└── " : "├── "),
                childPrefix: childPrefix + (isLast ? "    " : "│   "), into: &lines)
        }
    }

    private static func line(for node: Node, number: Int?) -> String {
        var parts = [node.key.description]
        if let scope = node.scope { parts.append(scope.description) }
        switch node.outcome {
        case .created: parts.append("new")
        case .cached: parts.append("cached")
        case .sharedInGraph: parts.append("shared")
        case .failed(let identifier): parts.append("failed: \(identifier)")
        }
        if let number { parts.append("#\(number)") }
        // Where the factory ran, on the steps that ran it.
        if let isolation = node.isolation, node.outcome != .cached, node.outcome != .sharedInGraph {
            parts.append("(\(isolation))")
        }
        switch node.source {
        case .registration, .missing: break
        case .override(let layer, _): parts.append("(override \"\(layer)\")")
        case .module(let name, let replaces, _, _): parts.append("(module \(name), replaces \(replaces))")
        case .fake: parts.append("(fake)")
        case .implicit: parts.append("(implicit)")
        }
        return parts.joined(separator: " ")
    }
}
