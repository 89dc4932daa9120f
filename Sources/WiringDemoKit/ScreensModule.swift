import Wiring

// The screens: a session that lasts until logout, a cart that builds itself, and a product
// screen's view model made for one product at a time.

extension Scope {
    /// Instances that live until the user logs out: `resetScope(.session)`.
    static let session = Scope("session")
}

final class Session {
    let user: String
    init(user: String) { self.user = user }
}

/// Builds itself from the resolver: no registration needed.
final class Cart: Injectable {
    let session: Session
    init(resolver: any Resolver) throws { session = try resolver.resolve() }
}

final class ProductViewModel {
    let productID: Int
    let repository: ProductRepository
    let cart: Cart
    let analytics: Analytics
    init(productID: Int, repository: ProductRepository, cart: Cart, analytics: Analytics) {
        self.productID = productID
        self.repository = repository
        self.cart = cart
        self.analytics = analytics
    }
}

/// Registers the session (in its own resettable scope) and the product view model, which takes
/// the product's ID as a runtime argument.
struct ScreensModule: Module {
    func register(in container: Container) {
        container.register(Session.self) { _ in Session(user: "ada") }.scope(.session)
        container.register(ProductViewModel.self) { (r, productID: Int) in
            try ProductViewModel(
                productID: productID, repository: r.resolve(), cart: r.resolve(), analytics: r.resolve())
        }
    }
}
