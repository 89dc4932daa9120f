import Wiring

/// A set of test doubles that replace registrations while the layer is in place, and the
/// instances made while it is on top. Popping it drops both.
///
/// ```swift
/// test.pushLayer("offline")
/// test.override(Network.self) { _ in OfflineNetwork() }
/// test.popLayer()
/// ```
public final class OverrideLayer: Sendable {
    /// The name shown in traces and reports.
    public let name: String
    package let id: Int
    /// Holds the overrides; never resolved from directly. A registration that sets no scope
    /// takes the base's default, as it would in the app's container.
    package let overrides: Container
    /// What the test container noticed, kept by its root layer and shared by every other: a
    /// recorder reaches its test container only through the layers it serves, whose last is
    /// the root.
    let warningLog: WarningLog
    /// The test that pushed this layer, if one is known: another test resolving through it is
    /// using overrides it did not make (see the isolation sentinel).
    let pushedDuring: TestRun?
    /// Where `pushLayer` pushed it, if it was pushed that way.
    let pushedAt: RegistrationSite?

    /// Where an override finds the scope of the registration it replaces.
    private let base: Container?
    /// The test container's fakes, which answer what nothing registers.
    private let containerFakes: Fakes?
    /// Fakes only the resolutions that see this layer use, over the test container's: for a
    /// test sharing its test container with others (the `.fakes` trait under a container someone
    /// else bound). `nil` for the root layer, whose fakes are the test container's.
    package let layerFakes: Fakes?
    /// The modules replaced in this layer, by the module that replaces each.
    private let replacedModules = LockedState<[ModuleOrigin: ModuleOrigin]>([:])

    init(
        name: String, base: Container?, changes: ChangeSignal, fakes: Fakes? = nil, warningLog: WarningLog? = nil,
        pushedDuring: TestRun? = nil, pushedAt: RegistrationSite? = nil, isRoot: Bool = false
    ) {
        self.name = name
        self.base = base
        containerFakes = fakes
        layerFakes = isRoot ? nil : base.map { Fakes(changes: changes, base: $0) }
        self.warningLog = warningLog ?? WarningLog()
        self.pushedDuring = pushedDuring
        self.pushedAt = pushedAt
        overrides = Container(defaultScope: base?.defaultScope)
        overrides.observeChanges(changes)
        self.id = OverrideLayer.identifiers.withLock { next in
            next += 1
            return next
        }
    }

    private static let identifiers = LockedState(0)

    /// Replaces the registration of a type (and name) while this layer is in place, at every
    /// depth of every resolution, including inside factories registered in the base.
    ///
    /// ```swift
    /// try test.withOverrides({ layer in layer.override(Clock.self) { _ in FixedClock() } }) { … }
    /// test.pushLayer("greeting").override(Greeting.self) { (_, name: String) in FakeGreeting(name) }
    /// ```
    ///
    /// The factory need not be `@Sendable`: it may capture a double the test keeps and inspects
    /// afterwards, such as a spy that is not `Sendable`. What the test takes on: resolutions run
    /// the factory, and use the double, on the thread or task that resolves; a double is used
    /// from the test's own tasks, so share it across threads only if it is safe to. A factory
    /// that takes runtime arguments after the resolver replaces the registration taking those
    /// arguments.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double from the resolver and the runtime arguments, if any.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    ///   - isolation: Where the factory runs: the caller's isolation, by default (a `@MainActor`
    ///     test's double runs only on the main actor); leave the default.
    /// - Returns: The registration, to set a scope. Unless you do, the override keeps the scope
    ///   of the registration it replaces, so a singleton's double is a singleton too.
    @discardableResult
    public func override<Service, each Argument>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: (any Actor)? = #isolation,
        factory: @escaping (any Resolver, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        // No runtime arguments: the plain override (the cast succeeds only for an empty pack),
        // stored as `Container.register` stores a factory called generically without arguments.
        if let none = () as Any as? (repeat each Argument) {
            return overrideWithoutArguments(serviceType, name: name, file: file, line: line, isolation: isolation) {
                try factory($0, repeat each none)
            }
        }
        noteIfNothingAnswers(
            ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self), as: serviceType,
            at: RegistrationSite(file, line))
        return keepingScope(
            IsolatedDouble.register(
                serviceType, name: name, file: file, line: line, isolation: isolation, in: overrides, factory: factory))
    }

    /// An override whose factory takes no runtime arguments.
    private func overrideWithoutArguments<Service>(
        _ serviceType: Service.Type, name: String?, file: StaticString, line: UInt, isolation: (any Actor)?,
        factory: @escaping (any Resolver) throws -> Service
    ) -> Registration<Service> {
        noteIfNothingAnswers(ServiceKey(serviceType, name: name), as: serviceType, at: RegistrationSite(file, line))
        return keepingScope(
            IsolatedDouble.register(
                serviceType, name: name, file: file, line: line, isolation: isolation, in: overrides, factory: factory))
    }

    /// Replaces the registration of a type (and name) with a ready double, while this layer is
    /// in place: every resolution gets this very instance, at every depth.
    ///
    /// ```swift
    /// let spy = SpyNetwork()                          // a class the test keeps; need not be Sendable
    /// test.pushLayer("spying").override(Network.self, instance: spy)
    /// ```
    ///
    /// What the test takes on: the double is used from the test's own tasks (whichever thread
    /// or task resolves gets it); share it across threads only if it is safe to.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - instance: The test double every resolution returns.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration. Its scope is `.container`, as for `register(_:instance:)`:
    ///   one instance, whatever the scope of the registration it replaces.
    @discardableResult
    public func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        noteIfNothingAnswers(ServiceKey(serviceType, name: name), as: serviceType, at: RegistrationSite(file, line))
        return overrides.register(serviceType, name: name, instance: instance, file: file, line: line)
    }

    /// Replaces a registration with a double whose factory is awaited, as `registerAsync`'s is:
    /// for an async registration of the app (or anything a test wants to make with `await`).
    /// Resolve it with `try await test.async.resolve(…)`, or from another async factory.
    ///
    /// ```swift
    /// test.overrideAsync(Database.self) { _ in try await InMemoryDatabase.open() }
    /// let database = try await test.async.resolve(Database.self)
    /// ```
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - factory: Makes the test double; it may capture a double the test keeps.
    ///   - file: The file that registers, shown in errors and reports; leave the default.
    ///   - line: The line that registers, shown in errors and reports; leave the default.
    /// - Returns: The registration, which keeps the scope of the one it replaces unless you set one.
    @discardableResult
    public func overrideAsync<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (AsyncResolver) async throws -> Service
    ) -> Registration<Service> {
        noteIfNothingAnswers(ServiceKey(serviceType, name: name), as: serviceType, at: RegistrationSite(file, line))
        // The test vouches for what the factory captures, as for `override`.
        let double = UncheckedSendable(factory)
        return keepingScope(
            overrides.registerAsync(serviceType, name: name, file: file, line: line) { resolver in
                try await UncheckedSendable(double.value(resolver)).value
            })
    }

    /// Notes an `override-of-unregistered` warning when nothing in the base (nor an implicit
    /// registration, nor a fake) answers `key`: the override replaces nothing, so whatever the
    /// test meant to replace still runs.
    private func noteIfNothingAnswers<Service>(_ key: ServiceKey, as serviceType: Service.Type, at site: RegistrationSite) {
        guard !Self.isRegistering, let base, base.lookup(key, in: nil) == nil,
            containerFakes?.registry[key] == nil, layerFakes?.registry[key] == nil,
            ImplicitRegistrations.entry(for: key, as: serviceType) == nil
        else { return }
        let registered = base.visibleRegistrations(includingParents: true).map(\.entry.key)
        warningLog.note(.overrideOfUnregistered(key, at: site, registered: registered))
    }

    // MARK: Replacing modules

    /// Set while the test container registers in its own layer (`test.register`): a new key
    /// there is what the test means, not an override that missed.
    @TaskLocal static var isRegistering = false

    /// Replaces a module the base container applied with another while this layer is in place:
    /// every registration the replaced module made is hidden, and the replacement's registrations
    /// answer instead, at every depth. The trace and `explain` say
    /// `(module FakeNetworkModule, replaces NetworkModule)`.
    ///
    /// ```swift
    /// try test.replace(NetworkModule.self, with: FakeNetworkModule())
    /// ```
    /// - Parameters:
    ///   - replaced: The module's type, as the base applied it (`Container(modules:)`, `apply(_:)`).
    ///   - replacement: The module whose registrations answer instead.
    /// - Throws: ``ModuleReplacementError`` when the base (and its parents) never applied `replaced`.
    public func replace(_ replaced: any Module.Type, with replacement: any Module) throws {
        let replacedOrigin = ModuleOrigin(replaced)
        var applied: [ModuleOrigin] = []
        var container = base
        while let current = container {
            applied += current.appliedModules
            container = current.parent
        }
        guard applied.contains(replacedOrigin) else {
            throw ModuleReplacementError(replaced: replacedOrigin.name, applied: applied.map(\.name))
        }
        let replacementOrigin = ModuleOrigin(replacement)
        replacedModules.withLock { $0[replacementOrigin] = replacedOrigin }
        overrides.apply([replacement])
        // What the replaced module registered and the replacement does not is hidden.
        let answered = Set(overrides.registeredKeys)
        let hidden = (base?.visibleRegistrations(includingParents: true) ?? []).map(\.entry)
            .filter { $0.options.module == replacedOrigin && !answered.contains($0.key) }
        for entry in hidden {
            let _: Registration<Void> = overrides.add(Refusal.hidden(entry))
        }
    }

    /// The module `module` replaces in this layer, if it replaces one.
    func replacedModule(by module: ModuleOrigin) -> ModuleOrigin? {
        replacedModules.withLock { $0[module] }
    }

    private func keepingScope<Service>(_ registration: Registration<Service>) -> Registration<Service> {
        registration.keepingScope(of: base)
    }
}

/// A module replacement that cannot be made: the base never applied the module to replace.
public struct ModuleReplacementError: Error, CustomStringConvertible, Sendable {
    /// The module the test asked to replace.
    public let replaced: String
    /// The modules the base container and its parents applied, in order.
    public let applied: [String]

    /// The error, and the modules that can be replaced.
    public var description: String {
        let modules = applied.isEmpty ? "none" : applied.joined(separator: ", ")
        return """
            error: cannot replace \(replaced): the base container never applied it (modules applied: \(modules))
              fix: replace one of the modules applied, by the type given to `Container(modules:)` or `apply(_:)`
            """
    }
}

extension Registration {
    /// This registration with the scope of the one it stands in for in `base`, if `base` has one:
    /// a singleton's double is a singleton too, unless the test sets another scope.
    func keepingScope(of base: Container?) -> Registration {
        guard let replaced = base?.registration(for: key) else { return self }
        return scope(replaced.scope)
    }
}
