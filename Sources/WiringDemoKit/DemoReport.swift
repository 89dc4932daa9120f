import Wiring
import WiringTestSupport

/// The demo's default output: plain sections a newcomer can read top to bottom.
struct DemoReport {
    let tour: ShopTour

    func render() -> String {
        var sections = [
            "Wiring demo: \(tour.title)\n\(tour.otherViews)",
            section("Registrations", registrations()),
            section("What was resolved", resolved()),
            section("Wiring report", "\(tour.verifyWiring())"),
            section("Dependency graph", tour.test.dependencyGraph().readableText(missing: missingKeys())),
        ]
        sections.removeAll { $0.isEmpty }
        return sections.joined(separator: "\n\n")
    }

    private func section(_ title: String, _ body: String) -> String {
        "\(title)\n\(String(repeating: "-", count: title.count))\n\(body)"
    }

    /// The app container's registrations, in registration order, with what autowiring knows
    /// they need.
    private func registrations() -> String {
        tour.container.registrations.map { registration in
            let needs = registration.dependencies.map { dependencies in
                ", needs " + dependencies.map(\.description).joined(separator: ", ")
            } ?? ""
            return "\(registration)\(needs)"
        }
        .joined(separator: "\n")
    }

    /// The keys the trace asked for and found no registration of.
    private func missingKeys() -> Set<ServiceKey> {
        Set(tour.test.trace.allNodes.filter { $0.source == .missing }.map(\.key))
    }

    /// The calls made, each failure's error under its call, then the trace tree and the checks.
    private func resolved() -> String {
        var lines: [String] = []
        for step in tour.steps {
            lines.append("> \(step.call)")
            if let error = step.error {
                lines.append(error)
                lines.append("")
            }
        }
        if lines.last != "" { lines.append("") }
        lines.append("The trace (instances are numbered in order of creation):")
        lines.append(tour.test.trace.render())
        if !tour.checks.isEmpty {
            lines.append("")
            lines.append("Checked on the instances:")
            lines += tour.checks.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
