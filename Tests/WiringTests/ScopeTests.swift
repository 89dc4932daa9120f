import Testing
import Wiring

extension Scope {
    static let session = Scope("session")
}

@Suite("Scopes")
struct ScopeTests {
    @Test func transientMakesANewInstanceEachTime() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.transient)
        container.register(Branch.self) { r in try Branch(left: r.resolve(), right: r.resolve()) }
        let branch = try container.resolve(Branch.self)
        #expect(branch.left !== branch.right)
    }

    @Test func graphIsTheDefaultAndSharesWithinOneResolve() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Branch.self) { r in try Branch(left: r.resolve(), right: r.resolve()) }
        let first = try container.resolve(Branch.self)
        let second = try container.resolve(Branch.self)
        #expect(first.left === first.right)
        #expect(first.left !== second.left)
    }

    @Test func manyAndLargeGraphInstancesAreSharedAndReleasedAfterTheCall() throws {
        // 200 instances overflow the resolution's first block of graph storage, and a value of
        // 512 bytes gets memory of its own: both must be shared within the call and released after it.
        struct Large { var words = SIMD64<Int>(repeating: 7) }
        let container = Container()
        let names = (0..<200).map { "leaf\($0)" }
        for name in names {
            container.register(Leaf.self, name: name) { _ in Leaf() }
        }
        container.register(Large.self) { _ in Large() }
        let released = WeakLeaves()
        container.register([Leaf].self) { r in
            let first = try names.map { try r.resolve(Leaf.self, name: $0) }
            let again = try names.map { try r.resolve(Leaf.self, name: $0) }
            #expect(zip(first, again).allSatisfy { $0 === $1 })
            #expect(try r.resolve(Large.self).words == SIMD64<Int>(repeating: 7))
            released.track(first)
            return first
        }
        _ = try container.resolve([Leaf].self)
        #expect(released.alive == 0)
    }

    @Test func argumentRegistrationsAreTransientByDefault() throws {
        let container = Container()
        container.register(Animal.self) { (_, name: String) in Cat(name: name) }
        let a = try container.resolve(Animal.self, arguments: "a")
        #expect(a.name == "a")
        #expect(try container.resolve(Animal.self, arguments: "b").name == "b")
        // The same arguments again: a new instance all the same.
        let again = try container.resolve(Animal.self, arguments: "a")
        #expect(again.name == "a")
        #expect(again !== a)
    }

    /// A kept scope with runtime arguments keeps one instance per distinct (Hashable) argument
    /// values: the same arguments give the same instance, different ones another.
    @Test(arguments: [Scope.container, .session])
    func aKeptScopeWithArgumentsKeepsOneInstancePerArgumentValues(scope: Scope) throws {
        let made = Counter()
        let container = Container()
        container.register(Animal.self) { (_, name: String, age: Int) in
            made.increment()
            return Cat(name: "\(name) \(age)")
        }
        .scope(scope)
        let rex3 = try container.resolve(Animal.self, arguments: "Rex", 3)
        #expect(rex3.name == "Rex 3")
        #expect(try container.resolve(Animal.self, arguments: "Rex", 3) === rex3)
        let rex4 = try container.resolve(Animal.self, arguments: "Rex", 4)
        let fido3 = try container.resolve(Animal.self, arguments: "Fido", 3)
        #expect(rex4.name == "Rex 4")
        #expect(fido3.name == "Fido 3")
        #expect(rex4 !== rex3)
        #expect(fido3 !== rex3)
        #expect(try container.resolve(Animal.self, arguments: "Rex", 4) === rex4)
        #expect(try container.resolve(Animal.self, arguments: "Rex", 3) === rex3)
        #expect(made.value == 3)
    }

    @Test func containerScopeIsASingletonSharedWithChildren() throws {
        let parent = Container()
        parent.register(Leaf.self) { _ in Leaf() }.scope(.container)
        let child = Container(parent: parent)
        let fromParent = try parent.resolve(Leaf.self)
        #expect(try parent.resolve(Leaf.self) === fromParent)
        #expect(try child.resolve(Leaf.self) === fromParent)
    }

    @Test func weakScopeSharesWhileHeldAndReleasesAfterwards() throws {
        let made = Counter()
        let container = Container()
        container.register(Leaf.self) { _ in made.increment(); return Leaf() }.scope(.weak)
        var held: Leaf? = try container.resolve(Leaf.self)
        #expect(try container.resolve(Leaf.self) === held)
        #expect(made.value == 1, "shared while held")
        weak let released = held
        held = nil
        #expect(released == nil, "the container does not keep it")
        // Released, it is made again: the freed one cannot be compared with (it is nil, and its
        // address may be reused), so the factory counts.
        let fresh = try container.resolve(Leaf.self)
        #expect(made.value == 2, "made again once nothing held it")
        #expect(try container.resolve(Leaf.self) === fresh)
        #expect(made.value == 2)
    }

    @Test func weakScopeRejectsValueTypesWithAnError() throws {
        let container = Container()
        container.register(Point.self) { _ in Point() }.scope(.weak)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Point.self) }
        #expect(error.identifier == "weak-scope-requires-class")
        #expect(error.description.contains("Point is registered in .weak scope, but its factory made a Point, which is not a class instance"))
        #expect(error.description.contains("fix: register Point in .transient, .graph or .container scope, or make it a class."))
    }

    @Test func customScopeSharesUntilReset() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.session)
        container.register(Branch.self) { _ in Branch(left: Leaf(), right: Leaf()) }.scope(.container)
        let first = try container.resolve(Leaf.self)
        let singleton = try container.resolve(Branch.self)
        #expect(try container.resolve(Leaf.self) === first)

        container.resetScope(.session)
        #expect(try container.resolve(Leaf.self) !== first)
        #expect(try container.resolve(Branch.self) === singleton, "resetting .session keeps .container instances")
    }

    @Test func resettingContainerScopeMakesNewSingletons() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.container)
        let first = try container.resolve(Leaf.self)
        container.resetScope(.container)
        #expect(try container.resolve(Leaf.self) !== first)
    }

    @Test func scopesDescribeThemselves() {
        #expect(Scope.graph.description == ".graph")
        #expect(Scope.session.description == #"Scope("session")"#)
        #expect(Scope("session") == Scope.session)
        #expect(Scope("container") != Scope.container)
    }
}

/// Weak references to leaves, to see that a resolution let them go.
private final class WeakLeaves: @unchecked Sendable {
    private struct Weak { weak var leaf: Leaf? }
    private var leaves: [Weak] = []

    func track(_ tracked: [Leaf]) { leaves = tracked.map(Weak.init) }
    var alive: Int { leaves.filter { $0.leaf != nil }.count }
}
