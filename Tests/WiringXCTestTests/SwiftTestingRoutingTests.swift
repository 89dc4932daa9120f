import Testing
import WiringTestHelpers
import WiringXCTest

// WiringXCTest's assertions fail a Swift Testing test too: at the caller's line, with the full text.

@Suite struct WiringXCTestUnderSwiftTestingTests {
    @Test func passingAssertionsRecordNothing() throws {
        let test = TestContainer(base: makeAppContainer())
        test.override(Network.self) { _ in FakeNetwork() }
        _ = assertResolves(Network.self, to: FakeNetwork.self, in: test)
        assertScope(Network.self, is: .container, in: test)
        assertWiringComplete(test)
        _ = try test.resolve(Checkout.self)
        assertNoUnusedRegistrations(test)
        assertRegistered([ServiceKey(Checkout.self)], in: test)
        assertNoFakesUsed(test)
    }

    @Test func eachAssertionFailsTheTestAtTheCallersLine() throws {
        let empty = TestContainer(base: Container())
        empty.fakes.register(Analytics.self) { NoopAnalytics() }
        _ = try empty.resolve(Analytics.self)
        let broken = Container()
        broken.register(Cart.self) { r in try Cart(network: r.resolve()) }
        let unused = TestContainer(base: makeAppContainer())
        let first = #line + 2
        let failures = recordedIssues {
            _ = assertResolves(Network.self, in: empty)
            _ = assertResolves(Analytics.self, to: Int.self, in: empty)
            assertScope(Database.self, is: .container, in: empty)
            assertWiringComplete(broken)
            assertNoUnusedRegistrations(unused)
            assertRegistered([ServiceKey(Database.self)], in: empty)
            assertNoFakesUsed(empty)
        }
        #expect(failures.map(\.line) == Array(first..<first + 7))
        #expect(failures.allSatisfy { $0.fileID == #fileID })
        #expect(failures.map { $0.message.prefix(while: { $0 != "\n" }) } == [
            "Network could not be resolved:",
            "Analytics resolved to NoopAnalytics, not Int",
            "cannot check that Database is .container: it could not be resolved:",
            "the wiring is incomplete:",
            "4 registrations were never resolved through the test container:",
            "1 key is not registered:",
            "1 service came from fakes, as nothing registered them or their registration is live-only:",
        ])
    }
}

/// The issues `body` records, as expected ones: each with its message and location.
func recordedIssues(_ body: () -> Void) -> [(message: String, fileID: String, line: Int)] {
    let recorded = Locked<[(message: String, fileID: String, line: Int)]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        recorded.withLock {
            $0.append((issue.comments.map(\.rawValue).joined(), issue.sourceLocation?.fileID ?? "", issue.sourceLocation?.line ?? 0))
        }
        return true
    }
    return recorded.withLock { $0 }
}
