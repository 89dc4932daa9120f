import Testing
import WiringSwiftTesting
import WiringTestHelpers

// The traits take doubles that are not Sendable, with no annotation: a factory or a fakes
// closure may capture one, and `.override(_:instance:)` takes one as it is.

/// A service protocol that does not require `Sendable`.
protocol Mailer: AnyObject {
    func send(_ message: String)
}

/// A spy as tests write them: mutable state, no lock, so not `Sendable`.
final class SpyMailer: Mailer {
    private(set) var sent: [String] = []

    func send(_ message: String) {
        sent.append(message)
    }
}

final class ConsoleMailer: Mailer {
    func send(_ message: String) {}
}

/// An app that mails through one shared mailer.
func makeMailingContainer() -> Container {
    let container = Container()
    container.register(Mailer.self) { _ in ConsoleMailer() }.scope(.container)
    return container
}

@Suite struct TestDoubleTraitTests {
    @Test(.testContainer { makeMailingContainer() }, .override(Mailer.self, instance: SpyMailer()))
    func aReadyDoubleIsInstalled() throws {
        let test = try #require(TestContainer.current)
        let spy = try #require(try test.resolve(Mailer.self) as? SpyMailer)
        try test.resolve(Mailer.self).send("welcome")
        #expect(spy.sent == ["welcome"])
        #expect(test.trace.render().hasSuffix("Mailer .container cached #1 (override \"test\")"))
    }

    @Test(.testContainer { makeMailingContainer() })
    func aFactoryTraitMayCaptureADoubleTheTestKeeps() async throws {
        let spy = SpyMailer()
        let trait: TestDoubleTrait = .override(Mailer.self) { _ in spy }
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            try TestContainer.current?.resolve(Mailer.self).send("from the test's container")
        }
        #expect(spy.sent == ["from the test's container"])
    }

    @Test(.testContainer { Container() })
    func aFakesTraitMayCaptureADoubleTheTestKeeps() async throws {
        let spy = SpyMailer()
        let trait: TestDoubleTrait = .fakes { fakes in fakes.register(Mailer.self) { spy } }
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            try TestContainer.current?.resolve(Mailer.self).send("faked")
        }
        #expect(spy.sent == ["faked"])
    }

    /// Under a container other tests share, the double goes into a layer only this task sees.
    @Test func anInstanceTraitUnderASharedContainer() async throws {
        let shared = TestContainer(base: makeMailingContainer())
        let spy = SpyMailer()
        let trait: TestDoubleTrait = .override(Mailer.self, instance: spy)
        try await TestContainer.$current.withValue(shared) {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                try shared.resolve(Mailer.self).send("in the layer")
            }
        }
        #expect(spy.sent == ["in the layer"])
        #expect(try shared.resolve(Mailer.self) is ConsoleMailer)
    }
}
