// The README's quick start wiring, verbatim: its types are the fixtures of the articles' examples too.

import Wiring

protocol Animal: AnyObject { var name: String { get } }
final class Cat: Animal {
    let name: String
    init(name: String = "Cat") { self.name = name }
}
protocol Owner: AnyObject { var pet: Animal { get } }
final class PetOwner: Owner {
    let pet: Animal
    init(pet: Animal) { self.pet = pet }
}

func makePetContainer() -> Container {
    let container = Container()
    container.register(Animal.self) { _ in Cat() }
    container.register(Owner.self) { r in try PetOwner(pet: r.resolve(Animal.self)) }
        .scope(.container)
    return container
}
