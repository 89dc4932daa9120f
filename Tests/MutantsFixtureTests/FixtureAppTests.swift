import Foundation
import Wiring
import WiringXCTest
import XCTest

/// The fixture app's tests: they pass unmutated, and each notices (or misses) the mutants
/// Tests/WiringMutantsTests/FixtureRunTests.swift expects.
final class FixtureAppTests: XCTestCase {
    /// Kills `EventBus`'s `unshare` and `unregister`.
    func testScreensShareOneBus() throws {
        let test = makeTestContainer(base: makeFixtureApp())
        try test.resolve(EventBus.self).post("paid")
        XCTAssertEqual(try test.resolve(EventBus.self).posted, ["paid"])
    }

    /// Kills `Mailer`'s `unregister` and `fake` (the fake delivers nothing); its `unshare`
    /// survives: the test reads the mailer it sent through.
    func testWelcomeMailIsDelivered() throws {
        let test = makeTestContainer(base: makeFixtureApp())
        // For screens that resolve a mailer without caring what it sends.
        test.fakes.register(Mailer.self) { Mailer(delivers: false) }
        let mailer = try test.resolve(Mailer.self)
        mailer.send("Welcome")
        XCTAssertEqual(mailer.delivered, ["Welcome"])
    }

    /// Hangs under `Ticker`'s `unshare` (cut at the runner's time limit); kills its `unregister`.
    func testTickerIsSharedByItsReaders() throws {
        let test = makeTestContainer(base: makeFixtureApp())
        let writer = try test.resolve(Ticker.self)
        let reader = try test.resolve(Ticker.self)
        for _ in 0..<3 { writer.tick() }
        // As a screen polls a shared model: a reader with a ticker of its own never sees a tick.
        while reader.count < 3 { usleep(1_000) }
    }

    /// Lets `GreetingFormatter`'s `unregister` and `fake` survive: its `Injectable` default
    /// greets the same.
    func testGreetingNamesThePerson() throws {
        let test = makeTestContainer(base: makeFixtureApp())
        XCTAssertEqual(try test.resolve(GreetingFormatter.self).greeting(for: "Ada"), "Hello, Ada!")
    }

    /// Catches `PaymentGateway`'s `unregister` by verification only; its `unshare` and
    /// `Checkout`'s `unregister` survive (nothing else resolves them).
    func testCheckoutWiringIsComplete() {
        let report = makeTestContainer(base: makeCheckoutApp()).verifyWiring()
        XCTAssertTrue(report.problems.isEmpty, "\(report)")
    }
}
