import Testing
import Wiring

@Suite("Container hierarchy")
struct HierarchyTests {
    @Test func childSeesParentRegistrations() throws {
        let parent = Container()
        parent.register(Animal.self) { _ in Cat(name: "parent's") }
        let child = Container(parent: parent)
        #expect(try child.resolve(Animal.self).name == "parent's")
        #expect(child.parent === parent)
    }

    @Test func childRegistrationsDoNotLeakIntoTheParent() throws {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Animal.self) { _ in Cat() }
        #expect(throws: ResolutionError.self) { try parent.resolve(Animal.self) }
    }

    @Test func parentFactoryRunForAChildSeesTheChildAtEveryDepth() throws {
        final class Engine { let fuel: String; init(fuel: String) { self.fuel = fuel } }
        final class Car { let engine: Engine; init(engine: Engine) { self.engine = engine } }
        final class Garage { let car: Car; init(car: Car) { self.car = car } }

        let parent = Container()
        parent.register(String.self) { _ in "petrol" }
        parent.register(Engine.self) { r in try Engine(fuel: r.resolve()) }
        parent.register(Car.self) { r in try Car(engine: r.resolve()) }
        parent.register(Garage.self) { r in try Garage(car: r.resolve()) }
        let child = Container(parent: parent)
        child.register(String.self) { _ in "electric" }

        #expect(try parent.resolve(Garage.self).car.engine.fuel == "petrol")
        #expect(try child.resolve(Garage.self).car.engine.fuel == "electric")
    }
}
