import Foundation
import Testing
import Wiring
import WiringTestHelpers

// Behaviours only one other test caught: each test here reaches the same behaviour by another
// path, so that a regression of it fails two tests of different shapes.

private final class Checkout: @unchecked Sendable {
    let gateway: Gateway
    init(gateway: Gateway) { self.gateway = gateway }
}

private final class Gateway: @unchecked Sendable {
    let ledger: Ledger
    init(ledger: Ledger) { self.ledger = ledger }
}

private final class Ledger: @unchecked Sendable {}

/// A `.graph` scratch object, counted as it is made.
private final class Scratch: @unchecked Sendable {}

/// A singleton whose hook asks for an `Outbox`; `Outbox`'s factory asks for an `Inbox`.
private final class Inbox: @unchecked Sendable {
    var outbox: Outbox?
}

private final class Outbox: @unchecked Sendable {
    var inbox: Inbox?
}

/// What a call makes around a singleton: the same `.graph` scratch before and after it.
private final class Visit<Singleton>: @unchecked Sendable {
    let before: Scratch
    let singleton: Singleton
    let after: Scratch
    init(before: Scratch, singleton: Singleton, after: Scratch) {
        self.before = before
        self.singleton = singleton
        self.after = after
    }
}

/// Registered under a name only.
private final class Printer: @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// Needs a printer by a name nothing registers.
private final class Office: @unchecked Sendable {
    let printer: Printer
    init(printer: Printer) { self.printer = printer }
}

@Suite("Thin spots: behaviours reached by a second path")
struct ThinSpotTests {
    /// A factory resolving from another container it captured starts a call there that
    /// continues the running path: an error deep in that call names every key from the first
    /// request, not only those of the other container's call.
    @Test func aMissingRegistrationBehindACallOnAnotherContainerNamesThePathFromTheFirstRequest() throws {
        let app = Container()
        let payments = Container()
        app.register(Checkout.self) { _ in try Checkout(gateway: payments.resolve()) }
        payments.register(Gateway.self) { r in try Gateway(ledger: r.resolve()) }

        let error = try #require(throws: ResolutionError.self) { try app.resolve(Checkout.self) }

        #expect(error.identifier == "not-registered")
        #expect(error.path == [ServiceKey(Checkout.self), ServiceKey(Gateway.self), ServiceKey(Ledger.self)])
        #expect(error.description == """
            error: no registration for Ledger
              path: Checkout -> Gateway -> Ledger
              fix: register it with `container.register(Ledger.self) { r in … }` (or in a module the container is built from).
            """)
    }

    /// An async factory awaiting a container it captured starts a top-level async call, which
    /// continues the path of the resolution running the factory: an error deep in it names
    /// every key from the first request.
    @Test func aMissingRegistrationBehindAnAsyncCallOnACapturedContainerNamesThePathFromTheFirstRequest() async throws {
        let container = Container()
        container.registerAsync(Checkout.self) { [weak container] _ in try await Checkout(gateway: container!.async.resolve()) }
        container.register(Gateway.self) { r in try Gateway(ledger: r.resolve()) }

        let error = await #expect(throws: ResolutionError.self) { try await container.async.resolve(Checkout.self) }

        #expect(error?.identifier == "not-registered")
        #expect(error?.path == [ServiceKey(Checkout.self), ServiceKey(Gateway.self), ServiceKey(Ledger.self)])
        #expect(error?.description == """
            error: no registration for Ledger
              path: Checkout -> Gateway -> Ledger
              fix: register it with `container.register(Ledger.self) { r in … }` (or in a module the container is built from).
            """)
    }

    /// Two threads resolve, from a child, a call that makes a `.graph` scratch, then one of two
    /// singletons of the parent that need each other while being made: `Inbox`'s hook asks for
    /// `Outbox` through the parent it captured (a call of another source, nested in the
    /// running one), `Outbox`'s factory asks for `Inbox`. Their waits close a cycle, so one
    /// call backs off (in the nested call or in its own) and starts again: its scratch of the
    /// first attempt is dropped with it and made anew, never handed out.
    @Test func aCallThatBacksOffInsideANestedCallOnAParentMakesItsGraphScratchAgain() throws {
        let bothClaimed = StartBarrier(parties: 2)
        let deadline = Date(timeIntervalSinceNow: 30)
        let made = IdentityCollector()
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Scratch.self) { _ in
            let scratch = Scratch()
            made.insert(scratch)
            return scratch
        }
        parent.register(Inbox.self) { _ in
            bothClaimed.arriveAndWait(deadline: deadline)
            return Inbox()
        }
        .scope(.container)
        .initCompleted { [weak parent] _, inbox in
            // Gives the other thread time to wait for this one first, so that the cycle is
            // usually met here, in the nested call; met in the other thread, it must hold too.
            Thread.sleep(forTimeInterval: 0.1)
            inbox.outbox = try parent!.resolve(Outbox.self)
        }
        parent.register(Outbox.self) { r in
            bothClaimed.arriveAndWait(deadline: deadline)
            let outbox = Outbox()
            outbox.inbox = try r.resolve(Inbox.self)
            return outbox
        }
        .scope(.container)
        child.register(Visit<Inbox>.self) { r in try Visit(before: r.resolve(), singleton: r.resolve(), after: r.resolve()) }
        child.register(Visit<Outbox>.self) { r in try Visit(before: r.resolve(), singleton: r.resolve(), after: r.resolve()) }

        let failures = FailureLog()
        let handedOut = IdentityCollector()
        let finished = raceThreads(2) { index in
            do {
                let (before, after) = index == 0
                    ? try child.resolve(Visit<Inbox>.self).scratches : try child.resolve(Visit<Outbox>.self).scratches
                handedOut.insert(before)
                handedOut.insert(after)
            } catch {
                failures.note(error)
            }
        }
        try #require(finished, "the threads did not finish in time (a deadlock?)")
        try #require(failures.all.isEmpty, "\(failures.all)")
        #expect(try child.resolve(Inbox.self).outbox === child.resolve(Outbox.self))
        // One scratch per call, shared before and after its singleton.
        #expect(handedOut.count == 4 && handedOut.distinctCount == 2)
        #expect(made.distinctCount == 3, "the call that backed off made its scratch again")
    }

    /// A named lookup starts from the name's hash: a name nothing registers, whose hash a
    /// registered name shares (these two share their 64-bit FNV-1a hash), is missing, not
    /// answered by the other name's registration; also looked up from a child, inside a factory.
    @Test func aMissingNameSharingAHashWithARegisteredOneIsNotRegistered() throws {
        let parent = Container()
        let line = #line + 1
        parent.register(Printer.self, name: "k9PQor8dh7uP") { _ in Printer(name: "k9PQor8dh7uP") }
        let child = Container(parent: parent)
        child.register(Office.self) { r in try Office(printer: r.resolve(Printer.self, name: "k4_kQqs2RqID")) }

        let error = try #require(throws: ResolutionError.self) { try child.resolve(Office.self) }

        #expect(error.identifier == "not-registered")
        #expect(error.path == [ServiceKey(Office.self), ServiceKey(Printer.self, name: "k4_kQqs2RqID")])
        #expect(error.description == """
            error: no registration for Printer (name: "k4_kQqs2RqID")
              path: Office -> Printer (name: "k4_kQqs2RqID")
              registered for Printer:
                Printer (name: "k9PQor8dh7uP")  at \(#fileID):\(line)
              fix: register it with `container.register(Printer.self, name: "k4_kQqs2RqID") { r in … }`, or ask for one of the keys registered above.
            """)
        #expect(try child.resolve(Printer.self, name: "k9PQor8dh7uP").name == "k9PQor8dh7uP")
    }
}

extension Visit {
    fileprivate var scratches: (Scratch, Scratch) { (before, after) }
}

/// The errors threads met, read once they are done.
private final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func note(_ error: any Error) {
        lock.withLock { errors.append("\(error)") }
    }

    var all: [String] { lock.withLock { errors } }
}
