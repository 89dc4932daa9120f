import Wiring

let container = makeAppContainer()

print("Registrations")
for registration in container.registrations {
    let dependencies = registration.dependencies.map { " needs " + $0.map(\.description).joined(separator: ", ") } ?? ""
    print("  \(registration.key) [\(registration.scope)]\(dependencies)")
}

print("\nResolved")
do {
    let model = try container.resolve(ProductViewModel.self, arguments: 42)
    print("  ProductViewModel(productID: \(model.productID))")
    print("    repository.api.http.baseURL = \(model.repository.api.http.baseURL)")
    print("    repository.database.path    = \(model.repository.database.path)")
    print("    cart.session.user           = \(model.cart.session.user)")
    print("    trackers                    = \(model.trackers.map(\.vendor))")

    let again = try container.resolve(ProductViewModel.self, arguments: 7)
    print("  a second view model shares the .container HTTP client: \(again.repository.api.http === model.repository.api.http)")
    print("  and the .session Session until the scope is reset: \(again.cart.session === model.cart.session)")
    container.resetScope(.session)
    let afterLogout = try container.resolve(Cart.self)
    print("  after resetScope(.session), a new Session: \(afterLogout.session !== model.cart.session)")
} catch {
    print(error)
}

print("\nA mistake, and the error it gives")
let broken = Container(parent: container)
broken.register(ProductRepository.self) { r in
    try ProductRepository(api: r.resolve(), database: r.resolve(Database.self, name: "replica"))
}
do {
    _ = try broken.resolve(ProductViewModel.self, arguments: 1)
} catch {
    print(error)
}
