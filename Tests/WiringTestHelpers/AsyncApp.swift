import Wiring

// An app whose services open with `await` or live on the main actor: what the async test
// helpers (`overrideAsync`, `assertResolvesAsync`, `assertScopeAsync`) check.

/// A store opened with `await`, kept by the container.
package class AsyncStore: @unchecked Sendable {
    package init() {}

    package static func open() async -> AsyncStore {
        await Task.yield()
        return AsyncStore()
    }
}

/// The in-memory store a test puts in its place.
package final class InMemoryAsyncStore: AsyncStore, @unchecked Sendable {}

/// A request handler made with `await` for each call.
package final class AsyncHandler: Sendable {
    package init() {}
}

/// A screen model that lives on the main actor.
@MainActor package final class ScreenModel {
    package let title: String

    package init(title: String) {
        self.title = title
    }
}

/// The app's container: an async `.container` store, an async `.transient` handler, and a
/// main-actor `.graph` screen model taking its title.
package func makeAsyncApp() -> Container {
    let container = Container()
    container.registerAsync(AsyncStore.self, file: "App/Async.swift", line: 10) { _ in await AsyncStore.open() }
        .scope(.container)
    container.registerAsync(AsyncHandler.self, file: "App/Async.swift", line: 11) { _ in AsyncHandler() }
        .scope(.transient)
    container.registerMainActor(ScreenModel.self, file: "App/Async.swift", line: 12) { (_, title: String) in
        ScreenModel(title: title)
    }.scope(.graph)
    return container
}
