import Wiring

/// The whole static wiring a test container sees, as text to keep under review: every
/// registration with its scope, its file and what it needs, and every problem of the wiring
/// report.
///
/// ```swift
/// let manifest = TestContainer(base: makeAppContainer()).wiringManifest()
/// print(manifest.render())
/// ```
///
/// The text is the same on every run and changes only when the wiring does: registrations are
/// sorted by key, what each needs is sorted, and files are shown without line numbers (in the
/// problems too), so registering in another order or editing unrelated lines leaves it as it
/// was. An entry is marked `(override "layer")` when a layer's override answers its key (the
/// registration it hides is not listed), `(implicit)` when it is built unregistered, `(failed)`
/// or `(unchecked)` when the check could not build it; a need is marked `(fake)`, `(implicit)`
/// or `(missing)` by what answers it, and `(declared only)` when only an autowired initializer
/// declares it:
///
/// ```text
/// Wiring manifest: 4 registrations, 0 problems, 0 unchecked
///
/// Cart [.graph] at App/Shop.swift
///   needs Network
/// Checkout [.graph] at App/Shop.swift
///   needs Cart
///   needs Payments
/// Network [.container] at AppTests/CheckoutTests.swift (override "test")
/// Payments [.graph] at App/Shop.swift
///   needs Network
/// ```
public struct WiringManifest: Sendable, CustomStringConvertible {
    /// A service the wiring provides: a registration the test container sees, or a type it
    /// builds unregistered that the check resolved.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// Where an entry comes from.
        public enum Origin: Hashable, Sendable {
            /// A registration of the base container or of one of its parents.
            case base
            /// An override, or a registration of the test container itself, in the layer named.
            case layer(String)
            /// A type the container builds without a registration: `Injectable`, `Provider`, `Lazy`.
            case implicit
        }

        /// What the check made of an entry.
        public enum Check: Hashable, Sendable {
            /// It was built: its needs are all it resolved.
            case built
            /// Building it failed (the report says why): its needs are what it resolved before
            /// the failure, and what its autowired initializer declares.
            case failed
            /// It was not built (runtime arguments without a sample, a factory that must be
            /// awaited): its needs are only those its autowired initializer declares.
            case unchecked
            /// A live-only registration (`.liveOnly()`) nothing in the test container overrides or
            /// fakes: by design never run, so not built, yet no gap in the check.
            case liveOnly
        }

        /// The key it answers.
        public let key: ServiceKey
        /// Its scope, as registered.
        public let scope: Scope
        /// The file it was registered in, as `#fileID` spells it, without the line:
        /// `App/Network.swift`; `nil` for an implicit entry.
        public let file: String?
        /// Where it comes from.
        public let origin: Origin
        /// Whether the check built it, and so how complete ``needs`` is.
        public let check: Check
        /// What it needs, sorted by key.
        public let needs: [Need]

        /// The entry's line, then one line per need, indented:
        /// `Cart [.graph] at App/Shop.swift` and `  needs Network`.
        public var description: String {
            lines.joined(separator: "\n")
        }

        /// The entry's line, then one line per need, indented.
        var lines: [String] {
            var markers: [String] = []
            switch origin {
            case .base: break
            case .layer(let name): markers.append("override \"\(name)\"")
            case .implicit: markers.append("implicit")
            }
            switch check {
            case .built: break
            case .failed: markers.append("failed")
            case .unchecked: markers.append("unchecked")
            case .liveOnly: markers.append("live-only, not run")
            }
            let at = file.map { " at \($0)" } ?? ""
            return ["\(key) [\(scope)]\(at)\(WiringManifest.marked(markers))"] + needs.map { "  needs \($0)" }
        }
    }

    /// A service an entry needs: one its factory resolved while the check built it, or one its
    /// autowired initializer declares.
    public struct Need: Hashable, Sendable, CustomStringConvertible {
        /// What answers a need.
        public enum Answer: Hashable, Sendable {
            /// A registration: of the base, one of its parents, or a layer of the test container.
            case registration
            /// A fake of `test.fakes`, as nothing registers the key.
            case fake
            /// The container itself, unregistered: `Injectable`, `Provider`, `Lazy`.
            case implicit
            /// Nothing: resolving it fails.
            case missing
        }

        /// The key it is resolved with.
        public let key: ServiceKey
        /// What answers it.
        public let answer: Answer
        /// Whether an autowired initializer takes it as an optional parameter, which gets `nil`
        /// when nothing answers.
        public let isOptional: Bool
        /// Whether the check saw it resolved: `false` when only an autowired initializer declares
        /// it (the registration was not built, or its build failed before reaching it).
        public let isResolved: Bool

        /// The key, `?` when optional, and the markers that apply: `Database`,
        /// `Logger? (missing, declared only)`.
        public var description: String {
            var markers: [String] = []
            switch answer {
            case .registration: break
            case .fake: markers.append("fake")
            case .implicit: markers.append("implicit")
            case .missing: markers.append("missing")
            }
            if !isResolved { markers.append("declared only") }
            return "\(key)\(isOptional ? "?" : "")\(WiringManifest.marked(markers))"
        }
    }

    /// Every registration the test container sees, and every type the check resolved without
    /// a registration, sorted by key (`ServiceKey.description`).
    public let entries: [Entry]
    /// The report of the check that found the needs: the same problems as `verifyWiring()`, but
    /// with the registrations built in the order of their keys, so that the report does not
    /// depend on the order they were registered in.
    public let report: WiringReport

    /// Every problem of ``report``, in the order of the keys they were found under.
    ///
    /// Deprecated: the same list as `report.problems`, which a manifest holds once.
    @available(*, deprecated, message: "a manifest's problems are those of its report: manifest.report.problems")
    public var problems: [WiringProblem] { report.problems }

    init(entries: [Entry], report: WiringReport) {
        self.entries = entries.sorted(byLabelOf: \.key)
        self.report = report
    }

    /// The manifest as text, the same on every run: a header that counts what it lists, every
    /// entry and its needs, every problem, and what was left unchecked; no line numbers and no
    /// addresses.
    public func render() -> String {
        let implicit = entries.count { $0.origin == .implicit }
        var header = "Wiring manifest: " + WiringReport.count(entries.count - implicit, "registration")
        if implicit > 0 { header += ", " + WiringReport.count(implicit, "implicit type") }
        header += ", \(WiringReport.count(report.problems.count, "problem")), \(report.unchecked.count) unchecked"
        if !report.liveOnly.isEmpty { header += ", \(report.liveOnly.count) live-only not run" }
        var sections = [header]
        if !entries.isEmpty { sections.append(entries.flatMap(\.lines).joined(separator: "\n")) }
        sections += report.problems.map { Self.withoutLineNumbers($0.description) }
        if let unchecked = report.uncheckedSection { sections.append(Self.withoutLineNumbers(unchecked)) }
        return sections.joined(separator: "\n\n")
    }

    /// The rendered manifest: ``render()``.
    public var description: String { render() }

    /// ` (override "test", unchecked)`, or nothing without markers.
    private static func marked(_ markers: [String]) -> String {
        markers.isEmpty ? "" : " (\(markers.joined(separator: ", ")))"
    }

    /// The text with the line of every Swift source location dropped, `App/Setup.swift:12`
    /// becoming `App/Setup.swift`: in a site, a near miss, or an error a factory threw.
    package static func withoutLineNumbers(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: ".swift:") {
            result += rest[..<range.lowerBound]
            result += ".swift"
            rest = rest[range.upperBound...]
            let line = rest.prefix { $0.isASCII && $0.isNumber }
            if line.isEmpty { result += ":" }
            rest = rest.dropFirst(line.count)
        }
        return result + rest
    }
}
