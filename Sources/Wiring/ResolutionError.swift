/// Why a service could not be resolved, along which path, and how to fix it.
///
/// Its description reads like a compiler diagnostic:
///
/// ```text
/// error: no registration for Animal (name: "mimi")
///   path: Owner -> Animal (name: "mimi")
///   registered for Animal:
///     Animal                        at App/Setup.swift:12
///     Animal (arguments: String)    at App/Setup.swift:13
///   fix: register it with `container.register(Animal.self, name: "mimi") { r in … }`, or ask for one of the keys registered above.
/// ```
///
/// A missing registration's fix names the likely mistake when it can: `did you mean "mimi"?`
/// for a name one typo away, or, when no registration of the type takes the runtime arguments
/// passed, the ones it does take and a call that matches them.
///
/// It stays readable whatever it is given: a name over 300 characters is shown by its ends and
/// its length, only the first ten registered keys are listed (and the rest counted), and a path
/// or cycle of more than eight keys shows the three at each end.
public struct ResolutionError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Sendable {
        /// Nothing is registered for the key; `nearMisses` share its type but differ in name or arguments.
        case notRegistered(nearMisses: [RegisteredKey])
        /// Resolving the key needs the key itself. The cycle starts and ends with the repeated key.
        case circularDependency(cycle: [ServiceKey])
        /// The factory (or an `initCompleted` hook) threw.
        case factoryFailed(underlying: any Error)
        /// The factory made a value that is not of the requested type.
        case typeMismatch(expected: any Any.Type, actual: any Any.Type)
        /// A `.weak` registration made a value that is not a class instance, which nothing can hold weakly.
        case weakScopeRequiresClass(actual: any Any.Type)
        /// A property wrapper or `Lazy` had no container to resolve from.
        case noContainer
        /// A synchronous resolve met a factory that must be awaited: an async one, or one isolated
        /// to the main actor while off the main thread.
        case requiresAwait(mainActor: Bool)
        /// The path grew longer than `limit` registrations: deeper than 1,000, which only an
        /// endless recursion makes, or than the stack of the thread left room for.
        case tooDeep(limit: Int)
        /// A resolver, `Provider` or `Lazy` kept past its resolution was used after its
        /// container was freed.
        case containerReleased
        /// A test container met a live-only registration (see `Registration.liveOnly()`) that
        /// no override or fake answers: its factory would reach something real.
        case liveOnly
    }

    /// A registration, by key and the place in source that made it.
    public struct RegisteredKey: Sendable, CustomStringConvertible {
        /// The key registered.
        public let key: ServiceKey
        /// Where it was registered.
        public let site: RegistrationSite

        /// A registered key and where it was registered.
        public init(key: ServiceKey, site: RegistrationSite) {
            self.key = key
            self.site = site
        }

        /// The key, then where it was registered: `Database at App/Setup.swift:12`.
        public var description: String { "\(key) at \(site)" }
    }

    /// The key that failed.
    public let key: ServiceKey
    /// Every key from the top-level request down to ``key``, in order.
    public let path: [ServiceKey]
    /// What went wrong.
    public let reason: Reason
    /// Where the failing registration was made, when it exists.
    public let site: RegistrationSite?
    /// What of the registration failed, when it was not its own factory.
    package let origin: Origin

    /// What of a registration failed.
    package enum Origin: Sendable, Equatable {
        /// Its factory, or the step resolving it.
        case factory
        /// One of its `initCompleted` hooks.
        case initCompletedHook
        /// Its `.implements(_:)`, which serves the instance of `target`'s registration as the key.
        case implements(target: ServiceKey)
    }

    package init(
        key: ServiceKey, path: [ServiceKey], reason: Reason, site: RegistrationSite? = nil, origin: Origin = .factory
    ) {
        self.key = key
        self.path = path
        self.reason = reason
        self.site = site
        self.origin = origin
    }

    /// Whether a synchronous resolve met a main-actor factory off the main actor.
    package var isMainActorRequired: Bool {
        if case .requiresAwait(mainActor: true) = reason { return true }
        return false
    }

    /// The error a factory threw, if that is what happened.
    public var underlyingError: (any Error)? {
        if case .factoryFailed(let error) = reason { return error }
        return nil
    }

    /// A short, stable name for the kind of failure: `not-registered`, `circular-dependency`,
    /// `factory-failed`, `type-mismatch`, `weak-scope-requires-class`, `no-container`,
    /// `requires-await`, `resolution-too-deep`, `container-released`, `live-only`.
    public var identifier: String {
        switch reason {
        case .notRegistered: "not-registered"
        case .circularDependency: "circular-dependency"
        case .factoryFailed: "factory-failed"
        case .typeMismatch: "type-mismatch"
        case .weakScopeRequiresClass: "weak-scope-requires-class"
        case .noContainer: "no-container"
        case .requiresAwait: "requires-await"
        case .tooDeep: "resolution-too-deep"
        case .containerReleased: "container-released"
        case .liveOnly: "live-only"
        }
    }

    /// The first line of ``description``: what failed, without path or fix.
    public var summary: String {
        switch reason {
        case .notRegistered:
            "no registration for \(key)"
        case .circularDependency:
            "circular dependency while resolving \(key)"
        case .factoryFailed(let error):
            origin == .initCompletedHook
                ? "an initCompleted hook of \(key) threw: \(error)" : "the factory of \(key) threw: \(error)"
        case .typeMismatch(let expected, let actual):
            if case .implements(let target) = origin {
                "\(key) is served by `.implements(\(typeName(expected)).self)` on the registration of \(target), "
                    + "whose instance, a \(typeName(actual)), is not a \(typeName(expected))"
            } else {
                "the factory of \(key) made a \(typeName(actual)), which is not a \(typeName(expected))"
            }
        case .weakScopeRequiresClass(let actual):
            "\(key) is registered in .weak scope, but its factory made a \(typeName(actual)), which is not a class instance"
        case .noContainer:
            "no container to resolve \(key) from"
        case .requiresAwait(let mainActor):
            mainActor
                ? "the factory of \(key) is isolated to the main actor, and this synchronous resolve is not running on the main actor"
                : "the factory of \(key) is async, so a synchronous resolve cannot run it"
        case .tooDeep(let limit):
            "resolving \(key) went deeper than \(limit) registrations"
        case .containerReleased:
            "the container to resolve \(key) from has been freed"
        case .liveOnly:
            "\(key) is registered live-only, and this TestContainer has no override or fake for it: its factory would reach the real thing"
        }
    }

    /// The whole error, compiler style: the summary, the path from the top-level request, what
    /// is registered instead and the fix, one per line.
    public var description: String {
        var lines = ["error: \(summary)"]
        if case .circularDependency(let cycle) = reason {
            lines.append("  cycle: " + BoundedText.chain(cycle))
        }
        lines.append("  path: " + BoundedText.chain(path))
        if let site { lines.append("  registered at: \(site)") }
        if case .notRegistered(let nearMisses) = reason, !nearMisses.isEmpty {
            lines.append("  registered for \(key.typeDescription):")
            lines += Self.lines(listing: nearMisses).map { "    " + $0 }
        }
        lines.append("  fix: \(fix)")
        return lines.joined(separator: "\n")
    }

    /// The registrations a missing key could have meant, one a line, their sites aligned:
    /// `Animal (arguments: String)  at App/Setup.swift:13`; at most `BoundedText.maximumListed`,
    /// then a line that counts the rest.
    package static func lines(listing registered: [RegisteredKey]) -> [String] {
        let (shown, more) = BoundedText.listed(registered)
        // Described once each: a key with a long name costs its length every time.
        let described = shown.map { (key: $0.key.description, site: $0.site) }
        let width = described.map(\.key.count).max() ?? 0
        return described.map { "\($0.key.padding(toLength: width))  at \($0.site)" } + (more.map { [$0] } ?? [])
    }

    /// What to do about it, in one sentence.
    public var fix: String {
        switch reason {
        case .notRegistered(let nearMisses):
            if key.takesArguments, let provider = key.serviceType as? any TakesArgumentsWhenCalled.Type {
                let provided = ServiceKey(
                    serviceType: provider.providedType, name: key.name, argumentList: key.argumentList)
                return "a `Provider` takes runtime arguments when it is called, not when it is resolved: resolve `\(key.typeDescription)` without them and call it with them, `try provider(…)`, which resolves \(provided)."
            }
            let registration = "register it with `container.register(\(registrationCall)) { \(factoryParameters) in … }`"
            guard !nearMisses.isEmpty else { return registration + " (or in a module the container is built from)." }
            let suggestion = RegistrationSuggestion(for: key, registered: nearMisses.map(\.key))
            if let mismatch = suggestion?.argumentsMismatch(for: key, asker: "this resolve"),
                let example = suggestion?.example {
                // Registering the key asked for would only hide the call's mistake.
                return mismatch + ": resolve it as registered, as in `try \(example.call(resolverName + ".resolve"))`."
            }
            let alternatives = registration + ", or ask for one of the keys registered above."
            return suggestion?.didYouMean.map { "\($0) If not, \(alternatives)" } ?? alternatives
        case .circularDependency(let cycle):
            let first = cycle.first.map(\.typeDescription) ?? key.typeDescription
            return "break the cycle: inject `Provider<\(first)>` or `Lazy<\(first)>` and call it only after the initializers have run, or set the back reference in `.initCompleted { r, instance in … }` on either registration, in any scope but .transient."
        case .factoryFailed:
            guard origin == .initCompletedHook else {
                return "make the factory of \(key) succeed here (the error above is the factory's own), or catch it inside the factory."
            }
            return "make the initCompleted hook of \(key) succeed here (the error above is the hook's own), or catch it inside the hook."
        case .typeMismatch(let expected, let actual):
            if case .implements(let target) = origin {
                return "make \(typeName(actual)) conform to \(typeName(expected)), or remove `.implements(\(typeName(expected)).self)` "
                    + "from the registration of \(target)."
            }
            return "make the registration produce a \(typeName(expected)), or register the concrete type under its own key."
        case .weakScopeRequiresClass:
            return "register \(key.typeDescription) in .transient, .graph or .container scope, or make it a class."
        case .requiresAwait(let mainActor):
            let call = "`try await \(key.call("container.async.resolve"))`"
            guard mainActor else { return "resolve it with \(call), or from an async factory (`registerAsync`)." }
            guard let dependent = path.dropLast().last, dependent != key, let top = path.first else {
                return "resolve it from @MainActor code, or with \(call) from anywhere."
            }
            // A plain factory resolved it synchronously: an async resolve above it cannot hop for it.
            return "the factory of \(dependent) resolves it synchronously, so resolve \(top) from @MainActor code, or "
                + "register \(dependent.typeDescription) with `registerMainActor` too: then "
                + "`try await \(top.call("container.async.resolve"))` hops to the main actor for both."
        case .tooDeep(let limit):
            return "look for a recursion the path repeats (a factory or hook that resolves what leads back to it); real object graphs stay far below \(limit) levels, and a graph this deep needs a thread with a larger stack."
        case .containerReleased:
            return "keep the container alive for as long as instances that hold a resolver, `Provider` or `Lazy` from it are used."
        case .noContainer:
            return "bind a container for the task with `Container.withCurrent(container) { … }`, or set `Container.shared = container` once at launch."
        case .liveOnly:
            let parameters = factoryParameters
            return "override it in the test, as in `test.override(\(registrationCall)) { \(parameters) in … }`, or give it a fake: "
                + "`test.fakes.register(\(key.typeDescription).self) { … }`."
        }
    }

    /// The parameters of a factory for ``key``: `r`, then one per runtime argument, typed.
    private var factoryParameters: String {
        let arguments = key.argumentTypes
        guard !arguments.isEmpty else { return "r" }
        return "(" + (["r"] + arguments.map { "_: \(typeName($0))" }).joined(separator: ", ") + ")"
    }

    /// What the failing resolve was most likely called on: the resolver a factory is given
    /// (`r` in this library's examples) below the top-level request, else the container.
    private var resolverName: String {
        path.count > 1 ? "r" : "container"
    }

    private var registrationCall: String {
        var parts = ["\(key.typeDescription).self"]
        if let name = key.name { parts.append("name: \(BoundedText.literal(name))") }
        return parts.joined(separator: ", ")
    }
}

extension ResolutionError {
    package static func noContainer(for key: ServiceKey) -> ResolutionError {
        ResolutionError(key: key, path: [key], reason: .noContainer)
    }

    package static func containerReleased(for key: ServiceKey) -> ResolutionError {
        ResolutionError(key: key, path: [key], reason: .containerReleased)
    }
}

extension Resolver {
    /// `resolve(_:name:)` for callers that must end in a `ResolutionError`, such as property
    /// wrappers: an error from a custom resolver is wrapped as a factory failure.
    package func resolveTyped<Service>(_ serviceType: Service.Type, name: String?) throws(ResolutionError) -> Service {
        do {
            return try resolve(serviceType, name: name)
        } catch let error as ResolutionError {
            throw error
        } catch {
            let key = ServiceKey(serviceType, name: name)
            throw ResolutionError(key: key, path: [key], reason: .factoryFailed(underlying: error))
        }
    }
}

extension String {
    /// The string as a Swift string literal, quotes and backslashes escaped, so that a fix
    /// that shows it compiles as written.
    package var swiftLiteral: String {
        "\"" + swiftLiteralContents + "\""
    }

    package func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

extension StringProtocol {
    /// The text as it is written between the quotes of a Swift string literal: quotes,
    /// backslashes and line breaks escaped.
    package var swiftLiteralContents: String {
        var literal = ""
        for character in unicodeScalars {
            switch character {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default: literal.unicodeScalars.append(character)
            }
        }
        return literal
    }
}
