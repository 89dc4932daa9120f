/// A group of registrations, such as everything one layer of an app provides.
///
/// ```swift
/// struct NetworkModule: Module {
///     func register(in container: Container) {
///         container.register(HTTPClient.self) { _ in URLSessionClient() }.scope(.container)
///     }
/// }
/// let app = Container(modules: [NetworkModule(), StorageModule()])
/// ```
public protocol Module {
    /// Adds the module's registrations to `container`.
    func register(in container: Container)

    /// Called once every module of `Container(modules:)` or `apply(_:)` has registered, with
    /// the container they were applied to: the place for set-up that needs the whole graph
    /// (Swinject's `LoadAwareAssembly.loaded(resolver:)`). Modules are called in the order they
    /// were given. Does nothing unless the module implements it.
    ///
    /// ```swift
    /// struct AnalyticsModule: Module {
    ///     func register(in container: Container) { … }
    ///     func loaded(resolver: any Resolver) {
    ///         try? resolver.resolve(Analytics.self).start()
    ///     }
    /// }
    /// ```
    /// - Parameter resolver: The container the modules were applied to.
    func loaded(resolver: any Resolver)

    /// Whether every registration of the module is live-only (see ``Registration/liveOnly()``):
    /// a module of real gateways, which a test must override or fake, never reach.
    ///
    /// ```swift
    /// struct PaymentsModule: Module {
    ///     var isLiveOnly: Bool { true }
    ///     func register(in container: Container) { … }
    /// }
    /// ```
    var isLiveOnly: Bool { get }
}

extension Module {
    /// Nothing: a module that needs no set-up after loading need not implement it.
    public func loaded(resolver: any Resolver) {}

    /// `false`: a module's registrations are live-only only if it says so, or each does.
    public var isLiveOnly: Bool { false }
}

/// The module a registration was made by, as `Container(modules:)` and `apply(_:)` note it.
package struct ModuleOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The module's type.
    package let type: ObjectIdentifier
    /// Its name, as the type is spelled: `NetworkModule`.
    package let name: String

    package init(_ module: any Module) {
        self.init(Swift.type(of: module))
    }

    package init(_ moduleType: any Module.Type) {
        type = ObjectIdentifier(moduleType)
        name = typeName(moduleType)
    }

    package var description: String { name }
}
