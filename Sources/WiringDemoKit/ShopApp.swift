import Wiring

/// The demo's app: a small shop, wired with one module per layer.
enum ShopApp {
    /// The modules, in the order the app applies them (later modules win).
    static var modules: [any Module] {
        [NetworkModule(), StorageModule(), AnalyticsModule(), ScreensModule()]
    }

    /// The container the app builds at launch.
    static func makeContainer() -> Container {
        Container(modules: modules)
    }

    /// The same app with one registration missing and one cycle.
    static func makeBrokenContainer() -> Container {
        Container(modules: modules + [BrokenWiringModule()])
    }
}
