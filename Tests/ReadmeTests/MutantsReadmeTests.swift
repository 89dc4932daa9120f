import Foundation
import Testing
import Wiring
import WiringTestSupport

// The Mutants article's example, verbatim inside a test: the test that kills a survived
// `unshare` of a `.container` singleton. (The report the article shows is the fixture's:
// FixtureRunTests in WiringMutantsTests checks it.)

/// A singleton two screens share: one sends, the other shows what was sent.
final class Outbox: @unchecked Sendable {
    private let lock = NSLock()
    private var mails: [String] = []

    func send(_ mail: String) { lock.withLock { mails.append(mail) } }
    var sent: [String] { lock.withLock { mails } }
}

func makeOutboxApp() -> Container {
    let container = Container()
    container.register(Outbox.self) { _ in Outbox() }.scope(.container)
    return container
}

@Suite struct MutantsReadme {
    @Test func theScreensShareOneOutbox() throws {
        let test = TestContainer(base: makeOutboxApp())
        try test.resolve(Outbox.self).send("Welcome")              // the signup screen sends
        #expect(try test.resolve(Outbox.self).sent == ["Welcome"])  // the outbox screen shows it
    }

    /// The same test fails under the mutant it is written to kill.
    @Test func itFailsUnderTheUnshareMutant() throws {
        let test = try WiringMutant.$inTask.withValue(WiringMutant.parse("Outbox:unshare")) {
            TestContainer(base: makeOutboxApp())
        }
        try test.resolve(Outbox.self).send("Welcome")
        #expect(try test.resolve(Outbox.self).sent == [])
    }
}
