import Foundation
import Wiring
import WiringTestHelpers
import WiringTestSupport


// The app graph (Checkout, Cart, Payments, Network) is WiringTestHelpers'; these are this
// target's own additions.

/// Not class-bound: an instance of it is an existential that may hold an object or a value.
protocol Labelled: Sendable {
    var label: String { get }
}

extension LiveNetwork: Labelled {}

/// Two classes of the same size, so that one may be allocated where the other was.
final class Ticket: Sendable {
    let serial = 0
}

final class Receipt: Sendable {
    let serial = 0
}


