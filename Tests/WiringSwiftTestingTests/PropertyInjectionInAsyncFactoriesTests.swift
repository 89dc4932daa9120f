import Foundation
import Testing
import WiringSwiftTesting
import WiringTestHelpers

// An object an async factory (`registerAsync`) makes resolves its `@Injected` properties in that
// factory's resolution, as one a synchronous factory makes does (ProvidersLaziesAndInjection.md,
// "Property injection"): overridden, recorded and verified as the factory's own resolves are.
//
// Before the fix (hunt 14; each failed 3 runs of 3): the awaited factory ran with no resolution
// on its thread, so the properties fell back to `Container.current`, else `Container.shared`: in a
// plain test container they found no container (reading one stopped the process), under the
// `.testContainer` trait they were recorded as roots of their own, and `verifyWiringAsync()`
// reported nothing for a property nothing answers.

protocol AsyncMadeNetwork: AnyObject {}
final class AsyncMadeLiveNetwork: AsyncMadeNetwork {}
final class AsyncMadeFakeNetwork: AsyncMadeNetwork {}

/// App code that reads its network from a property, as `@Injected` invites.
final class AsyncMadeRepository: @unchecked Sendable {
    @Injected var network: any AsyncMadeNetwork
}

/// The same, resolving on first access.
final class AsyncMadeLazyRepository: @unchecked Sendable {
    @LazyInjected var network: any AsyncMadeNetwork
}

/// The app: a network, and a repository made by an async factory or a plain one.
private func makeAsyncMadeApp(asyncRepository: Bool) -> Container {
    let app = Container()
    app.register((any AsyncMadeNetwork).self) { _ in AsyncMadeLiveNetwork() }
    if asyncRepository {
        app.registerAsync(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        app.registerAsync(AsyncMadeLazyRepository.self) { _ in AsyncMadeLazyRepository() }
    } else {
        app.register(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        app.register(AsyncMadeLazyRepository.self) { _ in AsyncMadeLazyRepository() }
    }
    return app
}

@Suite struct PropertyInjectionInAsyncFactoriesTests {
    @Test(arguments: [false, true])
    func anInjectedPropertyOfWhatAnAsyncFactoryMakesGetsTheTestsOverride(asyncRepository: Bool) async throws {
        let test = TestContainer(base: makeAsyncMadeApp(asyncRepository: asyncRepository))
        test.override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() }
        let repository = try await test.async.resolve(AsyncMadeRepository.self)
        #expect((try? repository.$network.get()) is AsyncMadeFakeNetwork, "\(repository.$network)")
        let lazy = try await test.async.resolve(AsyncMadeLazyRepository.self)
        #expect((try? lazy.$network.value) is AsyncMadeFakeNetwork)
    }

    @Test(
        .testContainer { makeAsyncMadeApp(asyncRepository: true) },
        .override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() })
    func anInjectedPropertyOfWhatAnAsyncFactoryMakesIsRecordedUnderThatFactory() async throws {
        let test = try #require(TestContainer.current)
        let repository = try await test.async.resolve(AsyncMadeRepository.self)
        #expect(try repository.$network.get() is AsyncMadeFakeNetwork)
        let roots = test.trace.roots
        #expect(roots.map(\.key) == [ServiceKey(AsyncMadeRepository.self)], "\(test.trace.render())")
        #expect(
            roots.first?.children.map(\.key) == [ServiceKey((any AsyncMadeNetwork).self)], "\(test.trace.render())")
    }

    @Test func verifyingReportsAnInjectedPropertyOfWhatAnAsyncFactoryMakesThatNothingAnswers() async {
        let app = Container()
        app.registerAsync(AsyncMadeRepository.self) { _ in AsyncMadeRepository() }
        let report = await TestContainer(base: app).verifyWiringAsync()
        #expect(!report.isComplete, "\(report)")
        #expect(
            report.problems.contains { $0.identifier == "missing-dependency" && "\($0)".contains("@Injected") },
            "\(report)")
    }

    /// Once the factory returned, what it made resolves nothing in its resolution: a property
    /// of an object made later, in a task the factory started, resolves as any other code does
    /// (from `Container.current`, else `Container.shared`), not from the test container.
    @Test func aTaskThatOutlivesItsAsyncFactoryResolvesOutsideIt() async throws {
        let app = Container()
        app.register((any AsyncMadeNetwork).self) { _ in AsyncMadeLiveNetwork() }
        let (factoryReturned, returned) = AsyncStream<Void>.makeStream()
        let later = Locked<Task<AsyncMadeRepository, Never>?>(nil)
        app.registerAsync(Int.self) { _ in
            later.set(Task {
                for await _ in factoryReturned { break }
                return AsyncMadeRepository()
            })
            return 1
        }
        let test = TestContainer(base: app)
        test.override((any AsyncMadeNetwork).self) { _ in AsyncMadeFakeNetwork() }
        _ = try await test.async.resolve(Int.self)
        returned.yield()
        returned.finish()
        let repository = await (try #require(later.get())).value
        #expect(!((try? repository.$network.get()) is AsyncMadeFakeNetwork))
        #expect(test.trace.roots.map(\.key) == [ServiceKey(Int.self)], "\(test.trace.render())")
    }
}

