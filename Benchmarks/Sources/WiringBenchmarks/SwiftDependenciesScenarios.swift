import Dependencies

// The swift-dependencies (pointfreeco) side of the scenarios, written the way its documentation
// tells users to: each dependency is a key conforming to `DependencyKey` with a `liveValue`, a
// computed property on `DependencyValues`, and `@Dependency(\.name)` properties on the model that
// uses it. Reading such a property looks the value up in the current `DependencyValues` (a task
// local) every time; the live value is made once and cached there, so every dependency is in
// effect a singleton. What a container makes anew on each resolve (a transient service) is a
// dependency whose value is a client struct with a `make` endpoint, each call of which builds a
// new object.
//
// No scenario overrides anything with `withDependencies`: these are the live values, as an app
// reads them. The models are structs, like a Composable Architecture reducer, so reading their
// `@Dependency` properties pays no exclusivity check.
//
// Scenarios without a meaningful counterpart print "n/a" (see `Scenarios.swift`):
// - the 10-node graph: swift-dependencies has no graph scope, nothing that shares instances within
//   one resolution and makes new ones for the next; its values are either cached for good or made
//   by a client endpoint the caller invokes, and wiring a fresh object graph is hand-written code.
// - named registrations: a dependency is found by its key type (or key path), never by a runtime
//   name; 10,000 names would be 10,000 key types, and choosing one by a string is hand-written.

// MARK: 1. transient, no dependencies

/// Maps `register(Leaf.self) { Leaf() }.scope(.transient)`: a factory client whose (cached) live
/// value makes a new `Leaf` per `make()`.
struct LeafFactory: Sendable {
    var make: @Sendable () -> Leaf
}

extension LeafFactory: DependencyKey {
    static let liveValue = LeafFactory { Leaf() }
}

extension DependencyValues {
    var leafFactory: LeafFactory {
        get { self[LeafFactory.self] }
        set { self[LeafFactory.self] = newValue }
    }
}

/// The model that needs leaves. Timed: `model.leafFactory.make()`, a `@Dependency` read plus the call.
struct LeafModel: Sendable {
    @Dependency(\.leafFactory) var leafFactory
}

// MARK: 2. transient chain A(B(C)), and the autowired chain

/// Maps the transient chain: one factory client per type, each live value reading the next client
/// through a `@Dependency` declared in its `liveValue`, the usual way for one dependency to use
/// another. The wrapper looks the client up again on every read, so `model.chainAFactory.make()`
/// makes three lookups, as a Wiring resolve of A looks up A, B and C.
/// swift-dependencies has no autowiring, so the autowired chain row times this same chain, as its
/// Swinject column times Swinject's factory registrations.
struct ChainCFactory: Sendable {
    var make: @Sendable () -> ChainC
}

struct ChainBFactory: Sendable {
    var make: @Sendable () -> ChainB
}

struct ChainAFactory: Sendable {
    var make: @Sendable () -> ChainA
}

extension ChainCFactory: DependencyKey {
    static let liveValue = ChainCFactory { ChainC() }
}

extension ChainBFactory: DependencyKey {
    static var liveValue: ChainBFactory {
        @Dependency(\.chainCFactory) var chainC
        return ChainBFactory { ChainB(c: chainC.make()) }
    }
}

extension ChainAFactory: DependencyKey {
    static var liveValue: ChainAFactory {
        @Dependency(\.chainBFactory) var chainB
        return ChainAFactory { ChainA(b: chainB.make()) }
    }
}

extension DependencyValues {
    var chainCFactory: ChainCFactory {
        get { self[ChainCFactory.self] }
        set { self[ChainCFactory.self] = newValue }
    }

    var chainBFactory: ChainBFactory {
        get { self[ChainBFactory.self] }
        set { self[ChainBFactory.self] = newValue }
    }

    var chainAFactory: ChainAFactory {
        get { self[ChainAFactory.self] }
        set { self[ChainAFactory.self] = newValue }
    }
}

/// Timed: `model.chainAFactory.make()`, three `@Dependency` reads and three `make()` calls.
struct ChainModel: Sendable {
    @Dependency(\.chainAFactory) var chainAFactory
}

// MARK: 4 and 7. Singleton

/// Maps a `.container` singleton: a plain dependency whose live value is the object itself. The
/// library makes it on first read and keeps it in `DependencyValues`' cache.
enum SingletonKey: DependencyKey {
    static let liveValue = Singleton()
}

extension DependencyValues {
    var singleton: Singleton {
        get { self[SingletonKey.self] }
        set { self[SingletonKey.self] = newValue }
    }
}

/// Timed: `model.singleton`, one `@Dependency` read, from one thread or two.
struct SingletonModel: Sendable {
    @Dependency(\.singleton) var singleton
}

// MARK: 5. one runtime argument

/// Maps `register(Greeter.self) { (_, name: String) in Greeter(name: name) }`: a client endpoint
/// that takes the argument, the library's usual shape for parameterised work.
struct GreeterFactory: Sendable {
    var make: @Sendable (_ name: String) -> Greeter
}

extension GreeterFactory: DependencyKey {
    static let liveValue = GreeterFactory { name in Greeter(name: name) }
}

extension DependencyValues {
    var greeterFactory: GreeterFactory {
        get { self[GreeterFactory.self] }
        set { self[GreeterFactory.self] = newValue }
    }
}

/// Timed: `model.greeterFactory.make(name)`.
struct GreeterModel: Sendable {
    @Dependency(\.greeterFactory) var greeterFactory
}

// MARK: Bodies

/// The timed closures, one per scenario that maps onto swift-dependencies. Each makes its model
/// once, as an app makes a feature's model, and reads the dependency on every call.
enum SwiftDependenciesBodies {
    static func leaf() -> Body {
        let model = LeafModel()
        return { model.leafFactory.make() }
    }

    static func chain() -> Body {
        let model = ChainModel()
        return { model.chainAFactory.make() }
    }

    static func singleton() -> Body {
        let model = SingletonModel()
        return { model.singleton }
    }

    static func greeter(name: String) -> Body {
        let model = GreeterModel()
        return { model.greeterFactory.make(name) }
    }
}
