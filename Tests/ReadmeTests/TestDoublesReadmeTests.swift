import Testing
import Wiring
import WiringTestSupport

// "Doubles the test keeps" (TestDoubles article) and argument keys (VerifyingAndTheManifest), verbatim inside tests.

@Suite struct TestDoublesReadme {
    @Test func aSpyTheTestKeeps() throws {
        let test = TestContainer(base: makeSignUpContainer())

        let mailer = SpyMailer()                                  // a plain class the test keeps: not Sendable
        test.override(Mailer.self, instance: mailer)              // every resolve gets this one, at every depth
        try test.resolve(SignUp.self).submit(email: "ada@example.com")
        #expect(mailer.sent == ["Welcome, ada@example.com"])

        test.override(Mailer.self) { _ in mailer }                // a factory may capture it too

        try test.resolve(SignUp.self).submit(email: "grace@example.com")
        #expect(mailer.sent == ["Welcome, ada@example.com", "Welcome, grace@example.com"])
    }

    @Test func theKeyOfARegistrationWithArguments() {
        let container = Container()

        container.register(Greeter.self) { (_, name: String) in Greeter(name: name) }
        container.register(Greeter.self, name: "formal") { (_, name: String, formal: Bool) in Greeter(name: name, formal: formal) }
        let missing = TestContainer(base: container).missingRegistrations(expected: [
            ServiceKey(Greeter.self, arguments: String.self),
            ServiceKey(Greeter.self, name: "formal", arguments: String.self, Bool.self),
        ])                                                             // [], as both are registered

        #expect(missing.isEmpty)
        #expect(!TestContainer(base: container).missingRegistrations(expected: [ServiceKey(Greeter.self)]).isEmpty)
    }
}

// MARK: Fixtures

/// Sends mail; not required to be `Sendable`, as most app protocols are not.
protocol Mailer: AnyObject {
    func send(_ message: String)
}

final class SMTPMailer: Mailer {
    func send(_ message: String) {}
}

/// A spy as tests write them: mutable state and no lock, so not `Sendable`.
final class SpyMailer: Mailer {
    private(set) var sent: [String] = []

    func send(_ message: String) {
        sent.append(message)
    }
}

final class SignUp {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }

    func submit(email: String) {
        mailer.send("Welcome, \(email)")
    }
}

/// The app's sign-up, over one shared mailer.
func makeSignUpContainer() -> Container {
    let container = Container()
    container.register(Mailer.self) { _ in SMTPMailer() }.scope(.container)
    container.register(SignUp.self) { r in try SignUp(mailer: r.resolve()) }
    return container
}

private final class Greeter {
    init(name: String, formal: Bool = false) {}
}
