import Wiring

/// Something a ``TestContainer`` noticed that is not an error but probably not what the test
/// meant: an override that could not reach an instance, a layer popped that was never pushed.
///
/// ```swift
/// for warning in test.warnings { print(warning.identifier, warning.message) }
/// assertNoWiringWarnings(test)     // WiringXCTest and WiringSwiftTesting
/// ```
///
/// Its description reads like a compiler diagnostic:
///
/// ```text
/// unbalanced-pop: popLayer() at AppTests/CheckoutTests.swift:31 found no layer pushed on this TestContainer, so it did nothing
///   fix: match every popLayer() with a pushLayer(_:) on the same test container; prefer `test.withOverrides({ layer in … }) { … }`, which removes its layer itself
/// ```
public struct WiringWarning: Hashable, Sendable, CustomStringConvertible {
    /// A short, stable name for what was noticed, for tests and filters:
    ///
    /// - `resolver-bypass`: a factory running in this test container's resolution resolved from
    ///   a container it captured instead of through the resolver it receives, so the test
    ///   container's overrides could not reach what it resolved that way.
    /// - `unbalanced-pop`: `popLayer()` with no layer pushed.
    /// - `unbalanced-push`: a layer still pushed when the test that pushed it ended.
    /// - `override-of-unregistered`: an override of a key nothing registers.
    /// - `live-only`: a live-only registration refused in a test, even if the error was caught.
    /// - `duplicate-registration`, `scope-ignores-arguments`: about the app's own wiring; these
    ///   fail no test (see ``WiringFindings``).
    public let identifier: String
    /// What was noticed, naming the types and the site, then, on a line of its own starting with
    /// `fix:`, what to do about it.
    public let message: String
    /// The service the warning is about, if it is about one: the registration whose factory
    /// bypassed its resolver, or the stale cached service.
    public let key: ServiceKey?
    /// Where to look: the registration whose factory bypassed its resolver, the `popLayer()`
    /// call, or the override a stale instance does not see.
    public let site: RegistrationSite?

    /// A warning; the test container makes them.
    init(identifier: String, message: String, key: ServiceKey? = nil, site: RegistrationSite? = nil) {
        self.identifier = identifier
        self.message = message
        self.key = key
        self.site = site
    }

    /// The identifier, then the message: `unbalanced-pop: popLayer() at … did nothing`.
    public var description: String { "\(identifier): \(message)" }

    /// Whether this is a finding about what the running test did, which fails it (see
    /// ``WiringFindings``), rather than about the app's own wiring, which no test caused.
    package var isAboutTheRunningTest: Bool {
        !["duplicate-registration", ScopeIgnoringArguments.identifier].contains(identifier)
    }
}

extension WiringWarning {
    /// `popLayer()` was called at `site` with no layer pushed.
    static func unbalancedPop(at site: RegistrationSite) -> WiringWarning {
        WiringWarning(
            identifier: "unbalanced-pop",
            message: """
                popLayer() at \(site) found no layer pushed on this TestContainer, so it did nothing
                  fix: match every popLayer() with a pushLayer(_:) on the same test container; prefer \
                `test.withOverrides({ layer in … }) { … }`, which removes its layer itself
                """,
            site: site)
    }

    /// An override of `key`, at `site`, that nothing in the base answers: it replaces nothing.
    static func overrideOfUnregistered(_ key: ServiceKey, at site: RegistrationSite, registered: [ServiceKey]) -> WiringWarning {
        var hint = ""
        let shortName = key.typeDescription
        if key.serviceType is AnyClass, !isExistential(key.serviceType),
            let registeredProtocol = likelyProtocol(of: shortName, among: registered) {
            // A concrete class overridden where the app registered a protocol it likely conforms to.
            hint = " \(shortName) is a class, and the app registers the protocol \(registeredProtocol.typeDescription), "
                + "which it may conform to: override that key, as in "
                + "`test.override((any \(registeredProtocol.typeDescription)).self) { r in \(shortName)(…) }`."
        } else if let didYouMean = RegistrationSuggestion(for: key, registered: registered)?.didYouMean {
            hint = " \(didYouMean)"
        }
        return WiringWarning(
            identifier: "override-of-unregistered",
            message: """
                the override of \(key) at \(site) replaces nothing: the base container registers no \(key), and \
                nothing else answers it (no implicit registration, no fake), so what the test meant to replace still runs
                  fix: override the key the app registers.\(hint)
                """,
            key: key, site: site)
    }

    /// Whether `type` is a protocol's existential (`any Network`), not a concrete type.
    private static func isExistential(_ type: any Any.Type) -> Bool {
        // The metatype of a protocol's existential is the protocol's `.Protocol`.
        String(describing: Swift.type(of: type)).hasSuffix(".Protocol")
    }

    /// The registered protocol `className` most likely conforms to: the one whose name shares
    /// the longest ending with it (`URLSessionClient`, `HTTPClient`), at least four characters.
    private static func likelyProtocol(of className: String, among registered: [ServiceKey]) -> ServiceKey? {
        func sharedEnding(_ name: String) -> Int {
            zip(className.reversed(), name.reversed()).prefix { $0 == $1 }.count
        }
        return registered
            .filter { isExistential($0.serviceType) && $0.name == nil }
            .map { (key: $0, shared: sharedEnding($0.typeDescription)) }
            .filter { $0.shared >= 4 }
            .max { $0.shared < $1.shared }?.key
    }

    /// `replaced` was registered at one site and then again, replacing it, at another.
    static func duplicateRegistration(_ replaced: Container.ReplacedRegistration) -> WiringWarning {
        func place(_ registration: (site: RegistrationSite, module: ModuleOrigin?)) -> String {
            registration.module.map { "\(registration.site) (module \($0))" } ?? "\(registration.site)"
        }
        return WiringWarning(
            identifier: "duplicate-registration",
            message: """
                \(replaced.key) is registered twice: at \(place(replaced.replaced)) and at \(place(replaced.winner)); \
                the last one, at \(replaced.winner.site), wins
                  fix: remove one of them; to replace a registration in tests, override it in the test container instead
                """,
            key: replaced.key, site: replaced.winner.site)
    }

    /// `layer` was still pushed when the test that pushed it ended, when its test container was
    /// freed, or when the test the container was made for ended.
    static func unbalancedPush(_ layer: OverrideLayer) -> WiringWarning {
        let site = layer.pushedAt.map { " at \($0)" } ?? ""
        let during = layer.pushedDuring.map { " during \($0.name)" } ?? ""
        return WiringWarning(
            identifier: "unbalanced-push",
            message: """
                layer "\(layer.name)", pushed\(site)\(during), was never popped: the test that pushed it ended, or its \
                TestContainer was freed, with the layer still pushed
                  fix: pop every layer where it is pushed (`defer { test.popLayer() }`), or use \
                `test.withOverrides({ layer in … }) { … }`, which removes its layer itself; in XCTest, \
                `pushLayer(_:on:)` pops it at teardown
                """,
            site: layer.pushedAt)
    }

    /// A test container refused `error.key`, a live-only registration, in a running test: the
    /// test fails even when the code under test caught the error.
    static func liveOnly(_ error: ResolutionError, site: RegistrationSite?) -> WiringWarning {
        var lines = error.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let summary = lines.isEmpty ? error.summary : String(lines.removeFirst().trimmingPrefix("error: "))
        let first = "\(summary); the resolve threw, and the test fails even where the code under test caught the error"
        return WiringWarning(
            identifier: "live-only", message: ([first] + lines).joined(separator: "\n"), key: error.key, site: site)
    }

    /// App code reset `scope` on a container a test container wraps, at `site`.
    static func resetOfWrappedContainer(_ scope: Scope, at site: RegistrationSite) -> WiringWarning {
        WiringWarning(
            identifier: "reset-of-wrapped-container",
            message: """
                resetScope(\(scope)) at \(site) reset a Container a TestContainer wraps: the test container keeps its \
                own instances, so the reset reached none of what the test resolved through it (and none of another test's)
                  fix: reset through what the code resolved: have it resolve `ScopeResetter` \
                (`let scopes = try r.resolve(ScopeResetter.self)`) and call `scopes.reset(\(scope))`, which resets the \
                test container in a test and the app's container in the app; or call `test.resetScope(\(scope))` in the test
                """,
            site: site)
    }

    /// Instances the test container made that were still alive when the test's scope ended.
    static func leakedInstances(_ leaked: [LeakedInstance], test: String) -> WiringWarning {
        let count = leaked.count == 1 ? "1 instance" : "\(leaked.count) instances"
        let lines = ["the test container of \(test) made \(count) still alive when the test ended, though no scope keeps them:"]
            + leaked.map { "  \($0)" }
            + ["  fix: find what still holds each (a closure capturing it strongly, a cycle of strong references, a global) "
                + "and break it with `[weak self]` or a weak property"]
        return WiringWarning(identifier: "leaked-instance", message: lines.joined(separator: "\n"), key: leaked.first?.key)
    }

    /// `entry` keeps one instance for all runtime arguments, as they are not all `Hashable`.
    static func scopeIgnoresArguments(_ entry: RegistrationEntry) -> WiringWarning {
        let text = ScopeIgnoringArguments(entry)
        return WiringWarning(
            identifier: ScopeIgnoringArguments.identifier,
            message: "\(text.message), registered at \(entry.site)\n  fix: \(text.fix)", key: entry.key, site: entry.site)
    }

    /// An override a resolve that bypassed its resolver did not reach: its layer and site.
    struct MissedOverride: Equatable {
        let layer: String
        let site: RegistrationSite
    }

    /// The factory or a hook of `entry`, running in a resolution of this test container,
    /// resolved `key` from a container it captured instead of through its resolver, and so
    /// missed `missed`, the override of `key` in the test container, if there is one.
    static func resolverBypass(by entry: RegistrationEntry, resolving key: ServiceKey?, missed: MissedOverride?) -> WiringWarning {
        let what = key.map { "resolved \($0) from a container it captured" } ?? "resolved from a container it captured"
        let consequence: String
        if let key, let missed {
            consequence = "so it missed the override of \(key) in layer \"\(missed.layer)\" at \(missed.site)"
        } else if key != nil {
            consequence = "so this TestContainer's overrides could not reach it"
        } else {
            consequence = "so this TestContainer's overrides could not reach what it resolved that way"
        }
        let registered = entry.key
        guard !entry.options.isImplicit else {
            // An `Injectable` type: its initializer is the factory, and it has no site.
            return WiringWarning(
                identifier: "resolver-bypass",
                message: """
                    the init(resolver:) of \(registered) (Injectable) \(what) instead of through the resolver it \
                    receives, \(consequence)
                      fix: resolve through the resolver init(resolver:) receives: `try resolver.resolve()`
                    """,
                key: registered)
        }
        let name = registered.name.map { ", name: \(BoundedText.literal($0))" } ?? ""
        let parameters = registered.takesArguments ? "(r, …)" : "r"
        return WiringWarning(
            identifier: "resolver-bypass",
            message: """
                the factory of \(registered) (or an initCompleted hook of it), registered at \(entry.site), \(what) \
                instead of through the resolver it receives, \(consequence)
                  fix: resolve through the resolver the factory receives, as in \
                `register(\(registered.typeDescription).self\(name)) { \(parameters) in … try r.resolve() … }`, not through a captured container
                """,
            key: registered, site: entry.site)
    }

}
