import Wiring

/// Two classic mistakes, applied over the shop app for `--broken`: a repository that reads from
/// a replica nobody registered, and a session that restores the last cart while the cart needs
/// the session.
struct BrokenWiringModule: Module {
    func register(in container: Container) {
        container.register(ProductRepository.self) { r in
            try ProductRepository(api: r.resolve(), database: r.resolve(Database.self, name: "replica"))
        }
        container.register(Session.self) { r in
            let session = Session(user: "ada")
            _ = try r.resolve(Cart.self)    // "restore the last cart", which needs this very session
            return session
        }
        .scope(.session)
    }
}
