import Wiring

/// Who depends on whom: every step the test container recorded, plus the dependencies autowired
/// registrations declare, as Graphviz or Mermaid text.
///
/// The text is the same on every run: nodes are sorted by label and numbered in that order
/// (`n1`, `n2`…), edges are sorted, and a dependency only declared (never resolved) is dashed, as
/// is the edge from a `Provider<T>` or a `Lazy<T>` to the `T` it resolves when used.
///
/// ```swift
/// _ = try test.resolve(Checkout.self)
/// print(test.dependencyGraph().dot)       // paste into `dot -Tsvg`
/// ```
public struct DependencyGraph: Sendable {
    /// One service depending on another.
    public struct Edge: Hashable, Sendable {
        /// The service that needs the other.
        public let from: ServiceKey
        /// The service it needs.
        public let to: ServiceKey
        /// Whether a recorded resolution made this step; `false` when only an autowired
        /// initializer declares it.
        public let isResolved: Bool
    }

    /// Every service in the graph, sorted by label (`ServiceKey.description`).
    public let nodes: [ServiceKey]
    /// Every dependency, sorted by the position of `from`, then of `to`, in ``nodes``.
    public let edges: [Edge]
    /// The index of each node in ``nodes``.
    private let positions: [ServiceKey: Int]

    /// - Parameters:
    ///   - trace: The resolutions recorded: each node depends on its children.
    ///   - declared: The dependencies autowired registrations declare, by registration.
    init(trace: ResolutionTrace, declared: [(key: ServiceKey, dependencies: [ServiceKey])]) {
        var keys = Set<ServiceKey>()
        var resolved = Set<Pair>()
        for node in trace.allNodes {
            keys.insert(node.key)
            for child in node.children {
                resolved.insert(Pair(from: node.key, to: child.key))
            }
        }
        var declaredOnly = Set<Pair>()
        for registration in declared {
            keys.insert(registration.key)
            for dependency in registration.dependencies {
                keys.insert(dependency)
                let pair = Pair(from: registration.key, to: dependency)
                if !resolved.contains(pair) { declaredOnly.insert(pair) }
            }
        }
        // A `Provider<T>` or a `Lazy<T>` resolves `T` later, when it is used: drawn dashed, so
        // that what it resolves does not look disconnected.
        for key in keys {
            guard let later = key.resolvedLater else { continue }
            let pair = Pair(from: key, to: later)
            keys.insert(pair.to)
            if !resolved.contains(pair) { declaredOnly.insert(pair) }
        }
        let nodes = keys.sortedByLabel()
        let position = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, $0) })
        self.nodes = nodes
        self.positions = position
        let all = resolved.map { Edge(from: $0.from, to: $0.to, isResolved: true) }
            + declaredOnly.map { Edge(from: $0.from, to: $0.to, isResolved: false) }
        edges = all.sorted { lhs, rhs in
            let left = (position[lhs.from] ?? 0, position[lhs.to] ?? 0)
            let right = (position[rhs.from] ?? 0, position[rhs.to] ?? 0)
            return left < right
        }
    }

    private struct Pair: Hashable {
        let from: ServiceKey
        let to: ServiceKey
    }

    /// The graph in Graphviz's DOT language: `digraph Wiring { … }`.
    public var dot: String {
        var lines = ["digraph Wiring {"]
        for (index, node) in nodes.enumerated() {
            lines.append("    \(Self.id(index)) [label=\"\(Self.dotEscaped(node.description))\"];")
        }
        for edge in edges {
            let style = edge.isResolved ? "" : " [style=dashed]"
            lines.append("    \(id(of: edge.from)) -> \(id(of: edge.to))\(style);")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The graph as a Mermaid flowchart: `graph TD` and one line per node and edge.
    public var mermaid: String {
        var lines = ["graph TD"]
        for (index, node) in nodes.enumerated() {
            lines.append("    \(Self.id(index))[\"\(Self.mermaidEscaped(node.description))\"]")
        }
        for edge in edges {
            let arrow = edge.isResolved ? "-->" : "-.->"
            lines.append("    \(id(of: edge.from)) \(arrow) \(id(of: edge.to))")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Text

    private static func id(_ index: Int) -> String {
        "n\(index + 1)"
    }

    private func id(of key: ServiceKey) -> String {
        Self.id(positions[key] ?? 0)
    }

    /// A DOT quoted string ends at an unescaped quote; a backslash starts an escape.
    private static func dotEscaped(_ label: String) -> String {
        var escaped = ""
        for character in label {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Mermaid takes `#name;` entity codes in labels; a quote would end the label and `<`, `>`
    /// (as in `Provider<Animal>`) would be read as HTML.
    private static func mermaidEscaped(_ label: String) -> String {
        var escaped = ""
        for character in label {
            switch character {
            case "#": escaped += "#35;"
            case "\"": escaped += "#quot;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension TestContainer {
    /// Who depends on whom: every resolution recorded in ``trace``, plus the dependencies that
    /// autowired registrations visible here declare, resolved or not (drawn dashed).
    ///
    /// ```swift
    /// _ = try test.resolve(Checkout.self)
    /// let graph = test.dependencyGraph()
    /// print(graph.mermaid)
    /// ```
    public func dependencyGraph() -> DependencyGraph {
        let declared = visibleRegistrations(includingParents: true).compactMap { found in
            found.entry.options.dependencies.map { (key: found.entry.key, dependencies: $0.map(\.key)) }
        }
        return DependencyGraph(trace: trace, declared: declared)
    }
}
