import Foundation
import Testing
import Wiring

// The articles' examples of optional services, a container's default scope, resetting one
// type's instances, lazies and forwarding with runtime arguments, the module hook after loading
// and registration behaviors, each verbatim inside a test that checks what its comments say.

protocol Printer: AnyObject, Sendable {}
final class LabelPrinter: Printer {}

final class Receipt {
    let printer: (any Printer)?
    init(printer: (any Printer)?) { self.printer = printer }
}

/// Starts once the whole graph is registered; counts its starts.
final class Tracker: @unchecked Sendable {
    let analytics: any Analytics
    private let lock = NSLock()
    private var starts = 0

    init(analytics: any Analytics) { self.analytics = analytics }

    func start() {
        lock.lock()
        starts += 1
        lock.unlock()
    }

    var startCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return starts
    }
}

struct AnalyticsModule: Module {
    func register(in container: Container) {
        container.register(Analytics.self) { _ in NoopAnalytics() }
    }
}

protocol ViewModel: AnyObject {}
final class ProfileViewModel: ViewModel {}

struct ServeViewModels: RegistrationBehavior {
    func container<Service>(_ container: Container, didRegister registration: Registration<Service>, info: RegistrationInfo) {
        guard Service.self is any ViewModel.Type else { return }
        registration.implements(ViewModel.self, name: info.key.typeDescription)
    }
}

/// Every registration a container reported, the last report of each key.
final class Catalogue: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [ServiceKey: RegistrationInfo] = [:]

    func record(_ info: RegistrationInfo) {
        lock.lock()
        entries[info.key] = info
        lock.unlock()
    }

    subscript(key: ServiceKey) -> RegistrationInfo? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }
}

@Suite struct SwinjectParityExamples {
    @Test func optionalServices() throws {
        let container = Container()

        container.register(Receipt.self) { r in try Receipt(printer: r.resolve(Printer?.self)) }   // prints only if a Printer is registered
        let printer = try container.resolve(Printer?.self)                                          // nil when none is

        #expect(printer == nil)
        #expect(try container.resolve(Receipt.self).printer == nil)
        container.register(Printer.self) { _ in LabelPrinter() }
        #expect(try container.resolve(Receipt.self).printer is LabelPrinter)
    }

    @Test func aContainersDefaultScope() throws {
        let app = Container(defaultScope: .container)           // singletons unless a registration says otherwise
        app.register(Database.self) { _ in SQLiteDatabase() }
        app.register(Cart.self) { r in try Cart(network: r.resolve()) }.scope(.graph)
        let screen = Container(parent: app)                      // its default scope is .container too

        app.register(Network.self) { _ in LiveNetwork() }
        #expect(try app.resolve(Database.self) === app.resolve(Database.self))
        #expect(try app.resolve(Cart.self) !== app.resolve(Cart.self))
        #expect(screen.defaultScope == .container)
    }

    @Test func resettingOneTypesInstances() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.session)
        container.register(Cart.self) { r in try Cart(network: r.resolve()) }.scope(.session)
        container.register(Network.self) { _ in LiveNetwork() }
        let session = try container.resolve(Session.self)
        let cart = try container.resolve(Cart.self)

        container.resetScope(.session, only: ServiceKey(Session.self))   // the Session goes; the scope's other instances stay

        #expect(try container.resolve(Session.self) !== session)
        #expect(try container.resolve(Cart.self) === cart)
    }

    @Test func aLazyWithRuntimeArguments() throws {
        let container = makeAppContainer()
        container.register(ProductViewModel.self) { (r, productID: Int) in
            try ProductViewModel(productID: productID, checkout: r.resolve())
        }

        let lazyModel = try container.resolve(Lazy<ProductViewModel>.self, arguments: 42)
        let model = try lazyModel.value            // resolve(ProductViewModel.self, arguments: 42), once

        #expect(model.productID == 42)
        #expect(try lazyModel.value === model)
    }

    @Test func forwardingWithRuntimeArguments() throws {
        let container = Container()

        container.register(Cat.self) { (_, name: String) in Cat(name: name) }
            .implements(Animal.self)
        let tom = try container.resolve(Animal.self, arguments: "Tom")

        #expect(tom.name == "Tom")
        #expect(tom is Cat)
    }

    @Test func aModuleHookAfterLoading() throws {
        struct TrackingModule: Module {
            func register(in container: Container) {
                container.register(Tracker.self) { r in try Tracker(analytics: r.resolve()) }.scope(.container)
            }
            func loaded(resolver: any Resolver) {
                try? resolver.resolve(Tracker.self).start()      // Analytics comes from a module registered after this one
            }
        }
        let app = Container(modules: [TrackingModule(), AnalyticsModule()])

        #expect(try app.resolve(Tracker.self).startCount == 1)
    }

    @Test func registrationBehaviors() throws {
        let catalogue = Catalogue()

        let container = Container(behaviors: [ServeViewModels()])
        container.observeRegistrations { info in catalogue.record(info) }   // each registration, and again after `.scope(_:)`
        container.register(ProfileViewModel.self) { _ in ProfileViewModel() }.scope(.container)
        let profile = try container.resolve(ViewModel.self, name: "ProfileViewModel")

        #expect(profile === (try container.resolve(ProfileViewModel.self)))
        #expect(catalogue[ServiceKey(ProfileViewModel.self)]?.scope == .container)
        #expect(catalogue[ServiceKey(ViewModel.self, name: "ProfileViewModel")]?.scope == .transient)
    }
}
