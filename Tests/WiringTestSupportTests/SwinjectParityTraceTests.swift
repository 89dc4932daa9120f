import Testing
import Wiring
import WiringTestHelpers
import WiringTestSupport

// Optional services, lazies with runtime arguments and types forwarded with `implements`
// resolve through a test container like any other service: overrides reach them, and the
// trace shows each step.

/// A service an app may or may not register.
final class Coupon: Sendable {
    let code: String
    init(code: String = "NONE") { self.code = code }
}

final class Basket: Sendable {
    let coupon: Coupon?
    init(coupon: Coupon?) { self.coupon = coupon }
}

protocol Discount: AnyObject, Sendable {
    var code: String { get }
}

extension Coupon: Discount {}

@Suite("Swinject parity through a test container")
struct SwinjectParityTraceTests {
    @Test func anOptionalServiceIsTracedAndOverridable() throws {
        let base = Container()
        base.register(Basket.self) { r in try Basket(coupon: r.resolve(Coupon?.self)) }
        let test = TestContainer(base: base)
        test.wiringFindings(.allow("override-of-unregistered"))

        #expect(try test.resolve(Basket.self).coupon == nil)
        test.override(Coupon.self) { _ in Coupon(code: "TEST") }
        #expect(try test.resolve(Basket.self).coupon?.code == "TEST")
        #expect(test.trace.render() == """
            Basket .graph new #2
            └── Optional<Coupon> .transient new #1 (implicit)
            Basket .graph new #5
            └── Optional<Coupon> .transient new #4 (implicit)
                └── Coupon .graph new #3 (override "test")
            """)
        #expect(test.verifyWiring().isComplete)
    }

    @Test func aMissingDependencyBelowAnOptionalIsAFailure() throws {
        let base = Container()
        base.register(Basket.self) { r in try Basket(coupon: r.resolve(Coupon?.self)) }
        base.register(Coupon.self) { r in try Coupon(code: r.resolve(String.self, name: "code")) }
        let test = TestContainer(base: base)

        #expect(throws: ResolutionError.self) { try test.resolve(Basket.self) }
        #expect(test.trace.render() == """
            Basket .graph failed: not-registered
            └── Optional<Coupon> .transient failed: not-registered (implicit)
                └── Coupon .graph failed: not-registered
                    └── String (name: "code") failed: not-registered
            """)
        #expect(test.verifyWiring().problems.map(\.identifier) == ["missing-dependency"])
    }

    @Test func aLazyWithArgumentsIsTraced() throws {
        let base = Container()
        base.register(Coupon.self) { (_, code: String) in Coupon(code: code) }
        let test = TestContainer(base: base)

        let lazy = try test.resolve(Lazy<Coupon>.self, arguments: "SPRING")
        #expect(test.resolutionCount(of: Coupon.self) == 0)
        #expect(try lazy.value.code == "SPRING")
        #expect(test.trace.render() == """
            Lazy<Coupon> (arguments: String) .transient new #1 (implicit)
            Coupon (arguments: String) .transient new #2
            """)
        #expect(test.resolutionCount(of: Coupon.self) == 1)
    }

    @Test func aForwardedTypeWithArgumentsIsTracedAndOverridable() throws {
        let base = Container()
        base.register(Coupon.self) { (_, code: String) in Coupon(code: code) }.implements((any Discount).self)
        let test = TestContainer(base: base)

        #expect(try test.resolve((any Discount).self, arguments: "SPRING").code == "SPRING")
        test.override(Coupon.self) { (_, code: String) in Coupon(code: "OVERRIDDEN " + code) }
        #expect(try test.resolve((any Discount).self, arguments: "SPRING").code == "OVERRIDDEN SPRING")
        #expect(try test.resolve(Optional<any Discount>.self, arguments: "X")?.code == "OVERRIDDEN X")
        #expect(test.trace.render() == """
            Discount (arguments: String) .transient new #1
            └── Coupon (arguments: String) .transient new #1
            Discount (arguments: String) .transient new #2
            └── Coupon (arguments: String) .transient new #2 (override "test")
            Optional<Discount> (arguments: String) .transient new #4 (implicit)
            └── Discount (arguments: String) .transient new #3
                └── Coupon (arguments: String) .transient new #3 (override "test")
            """)
    }
}
