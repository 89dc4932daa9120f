import Wiring
import WiringTestSupport

extension DependencyGraph {
    /// The graph as plain text for a terminal: each service, then what it needs, one per line.
    ///
    /// ```text
    /// ProductRepository
    ///     needs Database
    ///     needs ShopAPI
    /// ```
    /// - Parameter missing: Keys nothing is registered for, shown as such rather than as
    ///   needing nothing.
    func readableText(missing: Set<ServiceKey> = []) -> String {
        var lines: [String] = []
        for node in nodes {
            lines.append(node.description)
            let needs = edges.filter { $0.from == node }
            if missing.contains(node) {
                lines.append("    not registered")
            } else if needs.isEmpty {
                lines.append("    needs nothing")
            }
            for edge in needs {
                let note = edge.isResolved ? "" : "  (declared by its autowired initializer, never resolved)"
                lines.append("    needs \(edge.to)\(note)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
