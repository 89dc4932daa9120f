import Swinject
import Wiring
import WiringTestSupport

// A realistic app graph: 116 services in 29 layers, registered the same way in Wiring and
// Swinject, and resolved a whole pass at a time. The graph is generated, deterministically, by
// the rules below; `AppGraph.make()` checks what they promise (counts, depths, no captive
// dependency) before anything is timed.
//
// Layers, bottom (0) to top (28). Layers 0–24 are the app's core, 4 services each; layers 25–28
// are its features, 6, 4, 3 and 3 services. Scope by slot (the service's place in its layer):
//
// | Slot | Core (layers 0–24) | Features (layers 25–28) |
// | --- | --- | --- |
// | 0 | `.container` | `.graph` |
// | 1 | `.graph`; `.transient` in layers 2, 5, 8, … | `.transient` |
// | 2 | `.weak`, `.container`, `.graph`, `.transient` by layer % 4 | `.graph` |
// | 3 | `.transient`, 1–3 runtime arguments | `.transient`, 1–3 runtime arguments |
// | 4 | | `.graph` |
// | 5 | | `.transient`, 1–3 runtime arguments |
//
// The arguments are a `String`, then an `Int`, then a `Bool` (1 + layer % 3 of them). That makes
// 31 `.container`, 32 `.graph`, 7 `.weak` and 46 `.transient` services, 28 of which take
// arguments (a registration with arguments is always transient).
//
// Dependencies: every service above layer 0 holds one service of the layer right below it (its
// spine: a `.container` one where it may, else the least used), so a service in layer L is L + 1
// services deep; and 0–2 more from the 2–6 layers below that, least used first. Eight feature
// services are the roots, which nothing depends on: two in layer 25, two in 26, one in 27 and the
// three of 28, so the roots are 26–29 services deep. Every other service is used by something.
// Like a well-wired app, there is no captive dependency: a `.container` service holds only
// `.container` ones and a `.weak` one `.container` or `.weak` ones. A `.transient` or `.graph`
// service holds at most one `.transient` one, as a real app does not fan out afresh at every
// level.
//
// Main-actor factories: Swinject has none, so every registration is a plain (synchronous,
// nonisolated) factory in both libraries, though an app would register its view models with
// `registerMainActor`.
//
// The services are distinct types, so lookups go by type as in an app: `AppService<H, T, O>`,
// whose three type parameters are the digits of the service's number. The factories are generic
// over the service type (the same for both libraries), where an app's would be concrete.

// MARK: The graph

/// How long an app service lives, with the same meaning in both libraries.
enum AppScope: CaseIterable, Sendable {
    case container, weak, graph, transient

    var wiring: Wiring.Scope {
        switch self {
        case .container: .container
        case .weak: .weak
        case .graph: .graph
        case .transient: .transient
        }
    }

    var swinject: Swinject.ObjectScope {
        switch self {
        case .container: .container
        case .weak: .weak
        case .graph: .graph
        case .transient: .transient
        }
    }

    /// Whether a service of this scope may hold one of `other` without a captive dependency.
    func mayHold(_ other: AppScope) -> Bool {
        switch self {
        case .container: other == .container
        case .weak: other == .container || other == .weak
        case .graph, .transient: true
        }
    }
}

/// One service of the graph, as registered.
struct AppNode: Sendable {
    /// Its number, 0 to 115, in registration order (bottom layer first).
    let index: Int
    let layer: Int
    let slot: Int
    let scope: AppScope
    /// How many runtime arguments its factory takes, 0 to 3: a `String`, an `Int`, a `Bool`.
    let arity: Int
    let type: any AppServiceType.Type
    /// What its factory resolves, in order; the first is its spine, in the layer right below.
    var dependencies: [AppDependency] = []
}

/// A dependency as a factory resolves it: the type, and the runtime arguments it needs.
struct AppDependency: Sendable {
    let index: Int
    let type: any AppServiceType.Type
    let arity: Int
}

struct AppGraph: Sendable {
    static let layerSizes = Array(repeating: 4, count: 25) + [6, 4, 3, 3]
    static let coreLayers = 25
    /// The roots, by layer and slot: nothing depends on them.
    static let roots: Set<[Int]> = [[25, 4], [25, 5], [26, 2], [26, 3], [27, 2], [28, 0], [28, 1], [28, 2]]

    let nodes: [AppNode]

    /// How many registrations there are, each resolved once at the top level of a pass.
    var count: Int { nodes.count }
    var rootNodes: [AppNode] { nodes.filter { Self.roots.contains([$0.layer, $0.slot]) } }

    static func scope(layer: Int, slot: Int) -> (scope: AppScope, arity: Int) {
        if layer < coreLayers {
            switch slot {
            case 0: return (.container, 0)
            case 1: return (layer % 3 == 2 ? .transient : .graph, 0)
            case 2: return ([AppScope.weak, .container, .graph, .transient][layer % 4], 0)
            default: return (.transient, 1 + layer % 3)
            }
        }
        switch slot % 4 {
        case 0, 2: return (.graph, 0)
        case 1: return slot == 5 ? (.transient, 1 + layer % 3) : (.transient, 0)
        default: return (.transient, 1 + layer % 3)
        }
    }

    /// Generates the graph by the rules at the top of this file and checks them.
    static func make() -> AppGraph {
        var nodes: [AppNode] = []
        var layers: [[Int]] = []
        for (layer, size) in layerSizes.enumerated() {
            var members: [Int] = []
            for slot in 0..<size {
                let (scope, arity) = scope(layer: layer, slot: slot)
                let index = nodes.count
                nodes.append(
                    AppNode(
                        index: index, layer: layer, slot: slot, scope: scope, arity: arity,
                        type: appServiceType(index)))
                members.append(index)
            }
            layers.append(members)
        }

        var dependents = Array(repeating: 0, count: nodes.count)
        func isRoot(_ index: Int) -> Bool { roots.contains([nodes[index].layer, nodes[index].slot]) }
        /// Whether `holder` may take `candidate` as one more dependency.
        func mayAdd(_ candidate: Int, to holder: Int) -> Bool {
            let held = nodes[candidate]
            let holding = nodes[holder]
            guard !isRoot(candidate), holding.scope.mayHold(held.scope),
                !holding.dependencies.contains(where: { $0.index == candidate })
            else { return false }
            let transients = holding.dependencies.filter { nodes[$0.index].scope == .transient }.count
            return held.scope != .transient || transients == 0
        }
        func add(_ candidate: Int, to holder: Int) {
            let held = nodes[candidate]
            nodes[holder].dependencies.append(AppDependency(index: candidate, type: held.type, arity: held.arity))
            dependents[candidate] += 1
        }

        for holder in nodes.indices where nodes[holder].layer > 0 {
            let layer = nodes[holder].layer
            // The spine: a `.container` service of the layer below where it may, else the least used.
            let spine = layers[layer - 1].filter { mayAdd($0, to: holder) }.min { a, b in
                let keyA = (nodes[a].scope == .container ? 0 : 1, dependents[a], nodes[a].slot)
                let keyB = (nodes[b].scope == .container ? 0 : 1, dependents[b], nodes[b].slot)
                return keyA < keyB
            }
            guard let spine else { fatalError("app graph: no spine for service \(holder)") }
            add(spine, to: holder)
            // 0–2 more from the 2–6 layers below, least used (then nearest) first.
            let window = layer >= 2 ? Array(layers[max(0, layer - 6)...(layer - 2)].joined()) : []
            for _ in 0..<((layer * 7 + nodes[holder].slot) % 3) {
                let extra = window.filter { mayAdd($0, to: holder) }.min { a, b in
                    (dependents[a], -nodes[a].layer, nodes[a].slot) < (dependents[b], -nodes[b].layer, nodes[b].slot)
                }
                guard let extra else { break }
                add(extra, to: holder)
            }
        }
        // Every service but the roots is used: one nobody took yet goes to a service up to 6
        // layers above with room for it (fewest dependencies first).
        for candidate in nodes.indices where dependents[candidate] == 0 && !isRoot(candidate) {
            let layer = nodes[candidate].layer
            let holder = nodes.indices.filter { holder in
                (layer + 1...layer + 6).contains(nodes[holder].layer) && nodes[holder].dependencies.count < 3
                    && mayAdd(candidate, to: holder)
            }.min { a, b in
                (nodes[a].dependencies.count, nodes[a].layer, nodes[a].slot)
                    < (nodes[b].dependencies.count, nodes[b].layer, nodes[b].slot)
            }
            guard let holder else { fatalError("app graph: nothing may hold service \(candidate)") }
            add(candidate, to: holder)
        }

        let graph = AppGraph(nodes: nodes)
        graph.checkRules(dependents: dependents)
        return graph
    }

    /// Fails loudly if the generated graph is not what the comment at the top says.
    private func checkRules(dependents: [Int]) {
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { fatalError("app graph: \(message())") }
        }
        require(nodes.count == 116, "\(nodes.count) services")
        let scopes = [AppScope.container, .graph, .weak, .transient].map { scope in
            nodes.filter { $0.scope == scope }.count
        }
        require(scopes == [31, 32, 7, 46], "scopes \(scopes)")
        require(nodes.filter { $0.arity > 0 }.count == 28, "arguments")
        for node in nodes {
            require(node.dependencies.count <= 3, "service \(node.index) has \(node.dependencies.count) dependencies")
            require(node.layer == 0 || nodes[node.dependencies[0].index].layer == node.layer - 1, "no spine")
            require(node.arity == 0 || node.scope == .transient, "arguments on a kept service")
            for dependency in node.dependencies {
                require(node.scope.mayHold(nodes[dependency.index].scope), "captive dependency")
                require(nodes[dependency.index].layer < node.layer, "dependency not below")
            }
            let isRoot = Self.roots.contains([node.layer, node.slot])
            require(isRoot == (dependents[node.index] == 0), "service \(node.index): root or unused")
        }
        require(rootNodes.map { depth(of: $0.index) } == [26, 26, 27, 27, 28, 29, 29, 29], "root depths")
    }

    /// The longest chain of services from `index` down, itself included.
    func depth(of index: Int) -> Int {
        1 + (nodes[index].dependencies.map { depth(of: $0.index) }.max() ?? 0)
    }

    /// "31 `.container`, 32 `.graph`, …", for the caption.
    var scopeSummary: String {
        let arguments = nodes.filter { $0.arity > 0 }.count
        let transients = nodes.filter { $0.scope == .transient }.count
        let counts = [AppScope.container, .graph, .weak].map { scope in
            "\(nodes.filter { $0.scope == scope }.count) .\(scope)"
        }
        let transient = "\(transients) .transient (\(arguments) with 1–3 runtime arguments)"
        return (counts + [transient]).joined(separator: ", ")
    }
}

// MARK: The services

/// Tells the service types apart: `AppService<D1, D0, D7>` is service 107.
protocol Digit: Sendable {}
enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}
enum D8: Digit {}
enum D9: Digit {}

private let digits: [any Digit.Type] = [
    D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self,
]

/// The type of service `index`, a distinct type for each number below 1,000.
func appServiceType(_ index: Int) -> any AppServiceType.Type {
    func hundreds<H: Digit>(_: H.Type) -> any AppServiceType.Type {
        func tens<T: Digit>(_: T.Type) -> any AppServiceType.Type {
            func ones<O: Digit>(_: O.Type) -> any AppServiceType.Type { AppService<H, T, O>.self }
            // Opened from a local: the compiler opens an existential metatype argument only so.
            let one = digits[index % 10]
            return ones(one)
        }
        let ten = digits[index / 10 % 10]
        return tens(ten)
    }
    let hundred = digits[index / 100 % 10]
    return hundreds(hundred)
}

typealias AppObject = AnyObject & Sendable

/// What every app service is: up to three dependencies and what its arguments came to.
protocol AppServiceType: AppObject {
    init(first: AppObject?, second: AppObject?, third: AppObject?, argument: Int)
    var first: AppObject? { get }
}

final class AppService<Hundreds: Digit, Tens: Digit, Ones: Digit>: AppServiceType {
    let first: AppObject?
    let second: AppObject?
    let third: AppObject?
    let argument: Int

    init(first: AppObject?, second: AppObject?, third: AppObject?, argument: Int) {
        self.first = first
        self.second = second
        self.third = third
        self.argument = argument
        AppCounters.instances &+= 1
    }
}

/// What a pass made, for the checks and the caption. Single-threaded: the app scenario runs on one
/// thread. An add per instance and per resolve, the same in every variant.
enum AppCounters {
    nonisolated(unsafe) static var instances = 0
    nonisolated(unsafe) static var resolves = 0
}

/// The runtime arguments every resolve of a service with arguments passes.
enum AppArguments {
    static let name = "user-42"
    static let number = 7
    static let flag = true

    /// What a factory makes of its arguments, kept in the instance.
    static func fold(_ name: String, _ number: Int = 0, _ flag: Bool = false) -> Int {
        name.utf8.count &+ number &+ (flag ? 1 : 0)
    }
}

extension AppServiceType {
    /// Makes the service from its dependencies, resolved in order by `resolve`.
    static func make(
        _ dependencies: [AppDependency], argument: Int, _ resolve: (AppDependency) throws -> AppObject
    ) rethrows -> Self {
        let count = dependencies.count
        return try Self(
            first: count > 0 ? resolve(dependencies[0]) : nil,
            second: count > 1 ? resolve(dependencies[1]) : nil,
            third: count > 2 ? resolve(dependencies[2]) : nil,
            argument: argument)
    }

    // MARK: Wiring

    static func register(_ node: AppNode, in container: WiringContainer) {
        let dependencies = node.dependencies
        let registration: Registration<Self>
        switch node.arity {
        case 0:
            registration = container.register(Self.self) { r in
                try make(dependencies, argument: 0) { try $0.type.resolve(from: r, arity: $0.arity) }
            }
        case 1:
            registration = container.register(Self.self) { (r, name: String) in
                try make(dependencies, argument: AppArguments.fold(name)) {
                    try $0.type.resolve(from: r, arity: $0.arity)
                }
            }
        case 2:
            registration = container.register(Self.self) { (r, name: String, number: Int) in
                try make(dependencies, argument: AppArguments.fold(name, number)) {
                    try $0.type.resolve(from: r, arity: $0.arity)
                }
            }
        default:
            registration = container.register(Self.self) { (r, name: String, number: Int, flag: Bool) in
                try make(dependencies, argument: AppArguments.fold(name, number, flag)) {
                    try $0.type.resolve(from: r, arity: $0.arity)
                }
            }
        }
        registration.scope(node.scope.wiring)
    }

    static func resolve(from resolver: any Wiring.Resolver, arity: Int) throws -> AppObject {
        AppCounters.resolves &+= 1
        switch arity {
        case 0: return try resolver.resolve(Self.self)
        case 1: return try resolver.resolve(Self.self, arguments: AppArguments.name)
        case 2: return try resolver.resolve(Self.self, arguments: AppArguments.name, AppArguments.number)
        default:
            return try resolver.resolve(
                Self.self, arguments: AppArguments.name, AppArguments.number, AppArguments.flag)
        }
    }

    // MARK: Swinject

    static func register(_ node: AppNode, in container: SwinjectContainer) {
        let dependencies = node.dependencies
        let entry: ServiceEntry<Self>
        switch node.arity {
        case 0:
            entry = container.register(Self.self) { r in
                make(dependencies, argument: 0) { $0.type.resolve(from: r, arity: $0.arity) }
            }
        case 1:
            entry = container.register(Self.self) { (r, name: String) in
                make(dependencies, argument: AppArguments.fold(name)) { $0.type.resolve(from: r, arity: $0.arity) }
            }
        case 2:
            entry = container.register(Self.self) { (r, name: String, number: Int) in
                make(dependencies, argument: AppArguments.fold(name, number)) {
                    $0.type.resolve(from: r, arity: $0.arity)
                }
            }
        default:
            entry = container.register(Self.self) { (r, name: String, number: Int, flag: Bool) in
                make(dependencies, argument: AppArguments.fold(name, number, flag)) {
                    $0.type.resolve(from: r, arity: $0.arity)
                }
            }
        }
        entry.inObjectScope(node.scope.swinject)
    }

    static func resolve(from resolver: any Swinject.Resolver, arity: Int) -> AppObject {
        AppCounters.resolves &+= 1
        switch arity {
        case 0: return resolver.resolve(Self.self)!
        case 1: return resolver.resolve(Self.self, argument: AppArguments.name)!
        case 2: return resolver.resolve(Self.self, arguments: AppArguments.name, AppArguments.number)!
        default:
            return resolver.resolve(Self.self, arguments: AppArguments.name, AppArguments.number, AppArguments.flag)!
        }
    }
}

// MARK: Passes

extension AppGraph {
    func makeWiringContainer() -> WiringContainer {
        let container = WiringContainer()
        for node in nodes {
            node.type.register(node, in: container)
        }
        return container
    }

    func makeSwinjectContainer() -> SwinjectContainer {
        let container = SwinjectContainer()
        for node in nodes {
            node.type.register(node, in: container)
        }
        return container
    }

    /// Resolves every registration once, in registration order, and returns the last object. The
    /// pass holds what it resolved until it ends, as an app holds its objects, so a `.weak`
    /// service is shared within a pass and made again in the next one.
    func pass(_ resolver: any Wiring.Resolver) throws -> AnyObject {
        var results: [AppObject] = []
        results.reserveCapacity(nodes.count)
        for node in nodes {
            results.append(try node.type.resolve(from: resolver, arity: node.arity))
        }
        return results[results.count - 1]
    }

    func pass(_ resolver: any Swinject.Resolver) -> AnyObject {
        var results: [AppObject] = []
        results.reserveCapacity(nodes.count)
        for node in nodes {
            results.append(node.type.resolve(from: resolver, arity: node.arity))
        }
        return results[results.count - 1]
    }
}

// MARK: Measuring

/// The app scenario's name; a filter matching it selects the scenario.
let appScenarioName = "realistic app graph"

struct AppRow {
    let pass: String
    let wiring: Double
    let swinject: Double
}

struct AppResults {
    let graph: AppGraph
    /// Instances made and resolves made by a cold and by a warm pass, the same in every variant.
    let cold: PassCounts
    let warm: PassCounts
    /// Setup, cold and warm, ns per whole pass.
    let rows: [AppRow]
    /// Warm passes, ns per whole pass: the plain container and a recording `TestContainer` over
    /// a container set up the same way.
    let container: Double
    let testContainer: Double
}

struct PassCounts: Equatable, CustomStringConvertible {
    let instances: Int
    let resolves: Int
    var description: String { "\(instances) instances in \(resolves) resolves" }
}

/// What `body` made and resolved.
private func counting(_ body: () throws -> Void) rethrows -> PassCounts {
    let instances = AppCounters.instances
    let resolves = AppCounters.resolves
    try body()
    return PassCounts(instances: AppCounters.instances - instances, resolves: AppCounters.resolves - resolves)
}

struct AppCheckFailed: Error, CustomStringConvertible {
    let description: String
}

/// A warm pass of each variant, for `--profile`: Wiring, Swinject, and through a `TestContainer`.
/// What `--profile` runs of the app graph: Wiring's, Swinject's and a recording test container's
/// warm pass, or, with `setup`, making and filling the container (and the test container on it).
func appProfileBodies(setup: Bool) throws -> [Body] {
    let graph = AppGraph.make()
    if setup {
        return [
            { graph.makeWiringContainer() }, { graph.makeSwinjectContainer() },
            { TestContainer(base: graph.makeWiringContainer()) },
        ]
    }
    let wiring = graph.makeWiringContainer()
    let swinject = graph.makeSwinjectContainer()
    let test = TestContainer(base: graph.makeWiringContainer())
    _ = try graph.pass(wiring)
    _ = graph.pass(swinject)
    _ = try graph.pass(test)
    test.clearTrace()
    return [
        { try graph.pass(wiring) },
        { graph.pass(swinject) },
        {
            // The trace keeps every step; it is dropped after each pass.
            defer { test.clearTrace() }
            return try graph.pass(test)
        },
    ]
}

/// Checks that both libraries (and the test container) build the same graph, then times container
/// setup, cold passes, and warm passes with and without recording. ns per whole pass.
func measureApp(options: MeasureOptions) throws -> AppResults {
    let graph = AppGraph.make()
    func fail(_ message: String) -> AppCheckFailed { AppCheckFailed(description: "\(appScenarioName): \(message)") }

    // The same instances and resolves per pass in every variant.
    let wiring = graph.makeWiringContainer()
    let swinject = graph.makeSwinjectContainer()
    let test = TestContainer(base: graph.makeWiringContainer())
    let cold = try counting { _ = try graph.pass(wiring) }
    let warm = try counting { _ = try graph.pass(wiring) }
    let counts: [(variant: String, counts: PassCounts, expected: PassCounts)] = [
        ("Swinject, cold", counting { _ = graph.pass(swinject) }, cold),
        ("Swinject, warm", counting { _ = graph.pass(swinject) }, warm),
        ("TestContainer, first", try counting { _ = try graph.pass(test) }, cold),
        ("TestContainer, warm", try counting { _ = try graph.pass(test) }, warm),
        ("Wiring, warm again", try counting { _ = try graph.pass(wiring) }, warm),
    ]
    test.clearTrace()
    for (variant, counts, expected) in counts where counts != expected {
        throw fail("the \(variant) pass made \(counts), Wiring's \(expected)")
    }
    guard warm.instances < cold.instances else { throw fail("a warm pass made as much as a cold one (\(warm))") }
    // The roots are as deep as planned: follow each one's spine.
    for root in graph.rootNodes {
        var depth = 0
        var next: AppObject? = try root.type.resolve(from: wiring, arity: root.arity)
        while let service = next as? any AppServiceType {
            depth += 1
            next = service.first
        }
        guard depth == root.layer + 1 else { throw fail("root \(root.index) is \(depth) deep, not \(root.layer + 1)") }
    }

    progress("\(appScenarioName): container setup …")
    let made = Leaf()
    let setUp = try measureBatched(
        options: options,
        [
            BatchedBody(prepare: { made }, run: { _ in graph.makeWiringContainer() }),
            BatchedBody(prepare: { made }, run: { _ in graph.makeSwinjectContainer() }),
        ])
    progress("\(appScenarioName): cold pass (on fresh containers, set up untimed) …")
    let coldPass = try measureBatched(
        options: options,
        [
            BatchedBody(
                prepare: { graph.makeWiringContainer() },
                run: { try graph.pass(unsafeDowncast($0, to: WiringContainer.self)) }),
            BatchedBody(
                prepare: { graph.makeSwinjectContainer() },
                run: { graph.pass(unsafeDowncast($0, to: SwinjectContainer.self)) }),
        ])
    progress("\(appScenarioName): warm pass, and through a recording TestContainer …")
    let warmPass = try measure(
        threads: 1, options: options,
        [
            { try graph.pass(wiring) },
            { graph.pass(swinject) },
            {
                // The trace keeps every step; it is dropped after each pass.
                defer { test.clearTrace() }
                return try graph.pass(test)
            },
        ])
    let named = Array(zip(["setup, Wiring", "setup, Swinject"], setUp))
        + zip(["cold, Wiring", "cold, Swinject"], coldPass)
        + zip(["warm, Wiring", "warm, Swinject", "warm, TestContainer"], warmPass)
    for (name, measurement) in named {
        progress(
            "  \(name.padding(toLength: 20, withPad: " ", startingAt: 0))"
                + " median \(format(measurement.median / 1000)) µs"
                + " (min \(format(measurement.minimum / 1000)), max \(format(measurement.maximum / 1000)))"
                + ", \(measurement.iterations) passes × \(measurement.nanosecondsPerOperation.count) samples")
    }
    return AppResults(
        graph: graph, cold: cold, warm: warm,
        rows: [
            AppRow(pass: "container setup", wiring: setUp[0].median, swinject: setUp[1].median),
            AppRow(pass: "cold", wiring: coldPass[0].median, swinject: coldPass[1].median),
            AppRow(pass: "warm", wiring: warmPass[0].median, swinject: warmPass[1].median),
        ],
        container: warmPass[0].median, testContainer: warmPass[2].median)
}
