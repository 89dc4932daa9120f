import Testing
import Wiring

@Suite("Errors name the key, the path and the fix")
struct ResolutionErrorTests {
    @Test func missingRegistrationListsNearMisses() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self, name: "mimi")) }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(Owner.self) }
        #expect(error.identifier == "not-registered")
        #expect(error.key == ServiceKey(Animal.self, name: "mimi"))
        #expect(error.path == [ServiceKey(Owner.self), ServiceKey(Animal.self, name: "mimi")])
        #expect(error.description == """
            error: no registration for Animal (name: "mimi")
              path: Owner -> Animal (name: "mimi")
              registered for Animal:
                Animal                      at WiringTests/ResolutionErrorTests.swift:8
                Animal (arguments: String)  at WiringTests/ResolutionErrorTests.swift:9
              fix: register it with `container.register(Animal.self, name: "mimi") { r in … }`, or ask for one of the keys registered above.
            """)
    }

    @Test func missingRegistrationWithNothingSimilar() throws {
        let container = Container()
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Food.self) }
        #expect(error.description == """
            error: no registration for Food
              path: Food
              fix: register it with `container.register(Food.self) { r in … }` (or in a module the container is built from).
            """)
    }

    @Test func wrongArgumentTypesAreANearMiss() throws {
        let container = Container()
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(Animal.self, arguments: 42)
        }
        #expect(error.summary == "no registration for Animal (arguments: Int)")
        #expect(error.description.contains("Animal (arguments: String)  at WiringTests/ResolutionErrorTests.swift:"))
    }

    @Test func aThrowingFactoryIsWrappedWithItsPath() throws {
        let container = Container()
        container.register(Food.self) { _ -> Food in throw SampleError() }
        container.register(Owner.self) { r in
            let owner = PetOwner(pet: Cat())
            owner.food = try r.resolve(Food.self)
            return owner
        }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Owner.self) }
        #expect(error.identifier == "factory-failed")
        #expect(error.underlyingError is SampleError)
        #expect(error.description == """
            error: the factory of Food threw: the disk is full
              path: Owner -> Food
              registered at: WiringTests/ResolutionErrorTests.swift:\(error.site!.line)
              fix: make the factory of Food succeed here (the error above is the factory's own), or catch it inside the factory.
            """)
        #expect(error.site?.fileID == "WiringTests/ResolutionErrorTests.swift")
    }

    @Test func aThrowingHookIsReportedAsTheHookNotTheFactory() throws {
        let container = Container()
        container.register(Animal.self) { _ in Cat() }.initCompleted { _, _ in throw SampleError() }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self) }
        #expect(error.identifier == "factory-failed")
        #expect(error.summary == "an initCompleted hook of Animal threw: the disk is full")
        #expect(error.fix == "make the initCompleted hook of Animal succeed here (the error above is the hook's own), or catch it inside the hook.")
        #expect(error.underlyingError is SampleError)
    }

    @Test func aCycleIsReportedWithTheRepeatedTypeAtBothEnds() throws {
        final class A {}
        final class B {}
        final class C {}
        let container = Container()
        container.register(A.self) { r in _ = try r.resolve(B.self); return A() }
        container.register(B.self) { r in _ = try r.resolve(C.self); return B() }
        container.register(C.self) { r in _ = try r.resolve(B.self); return C() }

        let error = try #require(throws: ResolutionError.self) { try container.resolve(A.self) }
        #expect(error.identifier == "circular-dependency")
        guard case .circularDependency(let cycle) = error.reason else {
            Issue.record("expected a cycle, got \(error.reason)")
            return
        }
        #expect(cycle.map(\.description) == ["B", "C", "B"])
        #expect(error.description.hasPrefix("""
            error: circular dependency while resolving B
              cycle: B -> C -> B
              path: A -> B -> C -> B
              fix: break the cycle: inject `Provider<B>` or `Lazy<B>` and call it only after the initializers have run
            """))
    }

    @Test func aSingletonCycleIsAnErrorNotADeadlock() throws {
        final class A {}
        let container = Container()
        container.register(A.self) { r in try r.resolve(A.self) }.scope(.container)
        // On a thread of its own, with a time limit: a deadlock fails the test instead of hanging it.
        let summary = LockedBox<String?>(nil)
        let finished = raceThreads(1, timeout: .seconds(10)) { _ in
            do {
                _ = try container.resolve(A.self)
                summary.set("no error")
            } catch let error as ResolutionError {
                summary.set(error.summary)
            } catch {
                summary.set("\(error)")
            }
        }
        try #require(finished, "resolving a singleton that asks for itself did not return within 10 s: a deadlock")
        #expect(summary.get() == "circular dependency while resolving A")
    }

    @Test func aDeepButAcyclicGraphIsNotMistakenForACycle() throws {
        let container = Container()
        container.register(Int.self, name: "0") { _ in 0 }
        for depth in 1...500 {
            container.register(Int.self, name: "\(depth)") { r in try r.resolve(Int.self, name: "\(depth - 1)") + 1 }
        }
        #expect(try container.resolve(Int.self, name: "500") == 500)
    }

    @Test func recursionThroughTheSameKeyIsACycleWhateverTheArguments() throws {
        let container = Container()
        container.register(Int.self) { (r, depth: Int) in
            depth == 0 ? 0 : try r.resolve(Int.self, arguments: depth - 1) + 1
        }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, arguments: 3) }
        #expect(error.summary == "circular dependency while resolving Int (arguments: Int)")
    }

    @Test func aForwardedTypeTheServiceDoesNotConformToIsATypeMismatch() throws {
        let container = Container()
        container.register(Dog.self) { _ in Dog() }.implements(Food.self)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Food.self) }
        #expect(error.identifier == "type-mismatch")
        #expect(error.description.hasPrefix("""
            error: Food is served by `.implements(Food.self)` on the registration of Dog, whose instance, a Dog, is not a Food
              path: Food
              registered at: WiringTests/ResolutionErrorTests.swift:
            """))
        #expect(error.fix == "make Dog conform to Food, or remove `.implements(Food.self)` from the registration of Dog.")
    }

    @Test func anEscapedResolverStartsAFreshResolution() throws {
        let container = Container()
        let escaped = LockedBox<(any Resolver)?>(nil)
        container.register(Leaf.self) { r in escaped.set(r); return Leaf() }
        container.register(Cat.self) { _ in Cat(name: "later") }
        _ = try container.resolve(Leaf.self)
        let resolver = try #require(escaped.get())
        #expect(try resolver.resolve(Cat.self).name == "later")
    }

    @Test func anEscapedResolverIsFreedOnceDropped() throws {
        let container = Container()
        let escaped = LockedBox<(any Resolver)?>(nil)
        container.register(Leaf.self) { r in escaped.set(r); return Leaf() }
        _ = try container.resolve(Leaf.self)
        weak let resolution = try #require(escaped.get()) as AnyObject
        #expect(resolution != nil)
        // The thread's next calls do not use the escaped resolution, nor keep it alive.
        container.register(Cat.self) { _ in Cat(name: "next") }
        #expect(try container.resolve(Cat.self).name == "next")
        escaped.set(nil)
        #expect(resolution == nil)
    }
}

final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
}

import Foundation
// Imported here, not at the top, so that the registration lines the messages above quote stay put.
import WiringTestHelpers
