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
}
