import Foundation
import Wiring

protocol Animal: AnyObject {
    var name: String { get }
}

final class Cat: Animal {
    let name: String
    let sleeping: Bool

    init(name: String = "Cat", sleeping: Bool = false) {
        self.name = name
        self.sleeping = sleeping
    }
}

final class Dog: Animal {
    let name = "Dog"
}

protocol Food: AnyObject {}
final class Fish: Food {}

protocol Owner: AnyObject {
    var pet: Animal { get }
    var food: Food? { get set }
}

final class PetOwner: Owner, @unchecked Sendable {
    let pet: Animal
    var food: Food?

    init(pet: Animal) {
        self.pet = pet
    }
}

/// A value type, which `.weak` scope cannot hold.
struct Point {
    var x = 0
}

final class Leaf {}
final class Branch {
    let left: Leaf
    let right: Leaf
    init(left: Leaf, right: Leaf) {
        self.left = left
        self.right = right
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

struct SampleError: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}
