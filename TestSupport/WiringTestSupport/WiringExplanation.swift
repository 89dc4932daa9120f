import Wiring

/// What a resolve of one key through a test container would use, and why: which registration
/// answers (an override and its layer, the base, a fake, an implicit registration), what it
/// shadows, and whether an instance is kept; or, when nothing answers, the near misses.
///
/// ```swift
/// print(test.explain(Network.self))
/// // Network: answered by the override in layer "offline" at NetworkTests.swift:14 (.transient)
/// //   shadows the registration in the base at App/Network.swift:9 (.container)
/// //   instance: .transient makes a new one on every resolve
/// ```
public struct WiringExplanation: Sendable, CustomStringConvertible {
    /// A registration that can answer the key.
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        /// Where it comes from, in words: `the override in layer "offline"`, `the registration
        /// in the base`, `the fake`, `the implicit registration`.
        public let origin: String
        /// Where it was registered; `nil` for an implicit registration.
        public let site: RegistrationSite?
        /// Its scope.
        public let scope: Scope

        /// `the override in layer "offline" at NetworkTests.swift:14 (.transient)`.
        public var description: String {
            let at = site.map { " at \($0)" } ?? ""
            return "\(origin)\(at) (\(scope))"
        }
    }

    /// The key explained.
    public let key: ServiceKey
    /// The registration a resolve would use now; `nil` when nothing answers.
    public let answer: Candidate?
    /// The registrations of the key that `answer` hides, topmost first.
    public let shadowed: [Candidate]
    /// What the answer's scope keeps, in words; `nil` when nothing answers.
    public let instance: String?
    /// Where the answer's factory runs, in words, when a synchronous resolve cannot run it
    /// anywhere (main actor, async); `nil` for a plain factory.
    public let factory: String?
    /// When nothing answers: the registrations of the type, one per line, and the fix. The
    /// description lists only the first ten registrations and counts the rest.
    public let nearMisses: [String]

    /// Every line of the explanation, deterministic: no addresses, only sites and instance numbers.
    public var description: String {
        var lines: [String] = []
        if let answer {
            lines.append("\(key): answered by \(answer)")
            for candidate in shadowed { lines.append("  shadows \(candidate)") }
            if let factory { lines.append("  factory: \(factory)") }
            if let instance { lines.append("  instance: \(instance)") }
        } else {
            lines.append("\(key): nothing answers it (no layer, the base, its parents, the fakes nor an implicit registration)")
            // The registrations are a list of candidates, bounded as an error bounds it; the fix,
            // last, is always shown.
            lines += (BoundedText.listedLines(nearMisses.dropLast()) + nearMisses.suffix(1)).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
