import Wiring

// The network layer: one shared HTTP client, and the shop's API on top of it.

protocol HTTPClient: AnyObject {
    var baseURL: String { get }
}

final class URLSessionClient: HTTPClient {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}

final class ShopAPI {
    let http: HTTPClient
    init(http: HTTPClient) { self.http = http }
}

/// Registers the network layer: the HTTP client lives as long as the container, the API is
/// autowired from its initializer.
struct NetworkModule: Module {
    func register(in container: Container) {
        container.register(HTTPClient.self) { _ in URLSessionClient(baseURL: "https://shop.example") }
            .scope(.container)
        container.autoregister(ShopAPI.self, initializer: ShopAPI.init)
    }
}
