import Dispatch
import Foundation
import Testing
import Wiring
import WiringTestHelpers

private final class Hooked: @unchecked Sendable {
    var partner: Partner?
}

private final class Partner: @unchecked Sendable {
    var hooked: Hooked?
}

/// `Hooked` and `Partner` as `.container` singletons of `container` whose `initCompleted` hooks
/// resolve each other through `through(r)`: `r`, the resolver the hook receives, or a container
/// the hook captured.
private func registerHookedPair(
    in container: Container, speed: FactorySpeed = .fast,
    through: @escaping @Sendable (any Resolver) -> any Resolver = { $0 }
) {
    container.register(Hooked.self) { _ in Hooked() }
        .scope(.container)
        .initCompleted { r, hooked in
            speed.work()
            hooked.partner = try through(r).resolve(Partner.self)
        }
    container.register(Partner.self) { _ in Partner() }
        .scope(.container)
        .initCompleted { r, partner in
            speed.work()
            partner.hooked = try through(r).resolve(Hooked.self)
        }
}

/// What a call makes, `.graph`, before it asks for one of two singletons whose hooks resolve
/// each other, and the singleton it got.
private final class Errand<Singleton>: @unchecked Sendable {
    let scratch: Leaf
    let singleton: Singleton
    init(scratch: Leaf, singleton: Singleton) {
        self.scratch = scratch
        self.singleton = singleton
    }
}

private final class Parent: @unchecked Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}

private final class Child: @unchecked Sendable {
    weak var parent: Parent?
}

private final class Grandchild: @unchecked Sendable {
    weak var root: Parent?
}

private final class Middle: @unchecked Sendable {
    let grandchild: Grandchild
    init(grandchild: Grandchild) { self.grandchild = grandchild }
}

private final class Top: @unchecked Sendable {
    let middle: Middle
    init(middle: Middle) { self.middle = middle }
}

private final class Bottom: @unchecked Sendable {
    weak var top: Top?
}

private final class Pair: @unchecked Sendable {
    let first: Lazy<Leaf>
    let second: Lazy<Leaf>
    let firstLeaf: Leaf
    let secondLeaf: Leaf
    let direct: Leaf
    init(first: Lazy<Leaf>, second: Lazy<Leaf>, direct: Leaf) throws {
        self.first = first
        self.second = second
        self.direct = direct
        firstLeaf = try first.value
        secondLeaf = try second.value
    }
}

private final class Holder: @unchecked Sendable {
    let provider: Provider<Leaf>
    let lazy: Lazy<Leaf>
    let resolver: any Resolver
    init(resolver: any Resolver) throws {
        provider = try resolver.resolve()
        lazy = try resolver.resolve()
        self.resolver = resolver
    }
}

private struct HookFailure: Error, CustomStringConvertible {
    var description: String { "the hook failed" }
}

@Suite("Engine safety: publication, hooks, lifetimes")
struct EngineSafetyTests {
    /// Two singletons whose hooks resolve each other: 8 threads, released together, asking
    /// for one or the other, in each of 20 fresh containers, never see one before its hook ran,
    /// and are all handed the same one of each.
    ///
    /// What the factories run is not counted: when two threads each start one of the two, the
    /// resolution that would close the wait cycle backs off, drops what it made and starts again
    /// (see `Creations`), so a factory may run several times; only one instance is handed out.
    @Test(arguments: FactorySpeed.allCases)
    func aSingletonIsSeenByOtherThreadsOnlyOnceItsHooksHaveRun(speed: FactorySpeed) async throws {
        try await rounds(20) { round in
            let container = Container()
            registerHookedPair(in: container, speed: speed)
            let (hookeds, partners, halfBuilt) = try await raceForHookedPair(from: container, round: round)
            try #require(halfBuilt == 0, "round \(round): \(halfBuilt) threads saw an instance before its hook ran")
            try #require(
                hookeds.distinctCount == 1 && partners.distinctCount == 1,
                "round \(round): handed out \(hookeds.distinctCount) Hooked and \(partners.distinctCount) Partners, not one of each")
            let hooked = try container.resolve(Hooked.self)
            let partner = try container.resolve(Partner.self)
            hookeds.insert(hooked)
            partners.insert(partner)
            try #require(hookeds.distinctCount == 1 && partners.distinctCount == 1, "round \(round): a later resolve gave another")
            #expect(hooked.partner === partner)
            #expect(partner.hooked === hooked)
        }
    }

    /// 8 threads released together, even ones asking `container` for a `Hooked`, odd ones for a
    /// `Partner`: what they were handed, and how many saw one before its hook ran. Requires that
    /// they finished in time and that no resolve threw.
    private func raceForHookedPair(
        from container: Container, round: Int
    ) async throws -> (hookeds: IdentityCollector, partners: IdentityCollector, halfBuilt: Int) {
        let halfBuilt = LockedCounter()
        let failures = LockedCounter()
        let hookeds = IdentityCollector()
        let partners = IdentityCollector()
        let finished = await raceThreadsAsync(8) { index in
            do {
                if index.isMultiple(of: 2) {
                    let hooked = try container.resolve(Hooked.self)
                    if hooked.partner == nil { halfBuilt.increment() }
                    hookeds.insert(hooked)
                } else {
                    let partner = try container.resolve(Partner.self)
                    if partner.hooked == nil { halfBuilt.increment() }
                    partners.insert(partner)
                }
            } catch {
                failures.increment()
            }
        }
        try #require(finished, "round \(round): the threads did not finish in time (a deadlock?)")
        try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
        return (hookeds, partners, halfBuilt.value)
    }

    /// Hooks that resolve each other through a captured container, not their resolver: the
    /// inner call is a resolution of its own, which makes the instance still in its hooks once
    /// more; the one published first is the one every resolve gets, back references included.
    @Test func hooksResolvingEachOtherThroughACapturedContainerShareOneInstanceOfEach() throws {
        let parent = Container()
        let child = Container(parent: parent)
        registerHookedPair(in: parent) { _ in parent }
        let hooked = try child.resolve(Hooked.self)
        let partner = try child.resolve(Partner.self)
        #expect(try parent.resolve(Hooked.self) === hooked)
        #expect(hooked.partner === partner)
        #expect(partner.hooked === hooked)
    }

    /// As above, with the hooks resolving through a captured container, not their resolver: a
    /// call from another source runs as a resolution of its own inside the running one, and a
    /// back-off there must start the outer call again (the nested call hands it over as it
    /// ends), or the outer call fails with the wait cycle.
    @Test(arguments: FactorySpeed.allCases)
    func aBackOffInsideACallFromACapturedContainerStartsTheOuterCallAgain(speed: FactorySpeed) async throws {
        try await rounds(20) { round in
            let parent = Container()
            let child = Container(parent: parent)
            registerHookedPair(in: parent, speed: speed) { _ in parent }
            let (hookeds, partners, _) = try await raceForHookedPair(from: child, round: round)
            try #require(
                hookeds.distinctCount <= 1 && partners.distinctCount <= 1,
                "round \(round): handed out \(hookeds.distinctCount) Hooked and \(partners.distinctCount) Partners")
            // Later resolves give the instances the threads were handed.
            hookeds.insert(try child.resolve(Hooked.self))
            partners.insert(try child.resolve(Partner.self))
            #expect(hookeds.distinctCount == 1 && partners.distinctCount == 1, "round \(round)")
        }
    }

    /// One thread makes a singleton whose hook resolves a singleton without hooks, which another
    /// thread is making with a factory that resolves the first (the two factories meet before
    /// either returns): each waits for the other, so one of them backs off and starts its call
    /// again, from nothing, its `.graph` instances of the first attempt made anew, never reused.
    @Test func aCallThatBacksOffMakesItsGraphInstancesAgain() throws {
        let bothClaimed = StartBarrier(parties: 2)
        let deadline = Date(timeIntervalSinceNow: 30)
        let scratches = IdentityCollector()
        let container = Container()
        container.register(Leaf.self) { _ in
            let leaf = Leaf()
            scratches.insert(leaf)
            return leaf
        }
        container.register(Hooked.self) { _ in
            bothClaimed.arriveAndWait(deadline: deadline)
            return Hooked()
        }
        .scope(.container)
        .initCompleted { r, hooked in hooked.partner = try r.resolve(Partner.self) }
        container.register(Partner.self) { r in
            bothClaimed.arriveAndWait(deadline: deadline)
            let partner = Partner()
            partner.hooked = try r.resolve(Hooked.self)
            return partner
        }
        .scope(.container)
        container.register(Errand<Hooked>.self) { r in try Errand(scratch: r.resolve(), singleton: r.resolve()) }
        container.register(Errand<Partner>.self) { r in try Errand(scratch: r.resolve(), singleton: r.resolve()) }

        let failures = LockedCounter()
        let handedOut = IdentityCollector()
        let finished = raceThreads(2) { index in
            do {
                let scratch = index == 0
                    ? try container.resolve(Errand<Hooked>.self).scratch : try container.resolve(Errand<Partner>.self).scratch
                handedOut.insert(scratch)
            } catch {
                failures.increment()
            }
        }
        try #require(finished && failures.value == 0)
        #expect(try container.resolve(Hooked.self).partner === container.resolve(Partner.self))
        #expect(handedOut.distinctCount == 2)
        #expect(scratches.distinctCount == 3, "the call that backed off made its Leaf again")
    }

    /// As above, with the hook asking for the other singleton only once the other thread waits
    /// for the hook gate this one holds: the wait cycle is then met by the claim of the step
    /// the hook runs, through its resolver or in a call of its own from a captured container
    /// (another source than the one the call started from). That step backs off, and the call
    /// starts again (handed over by the nested call as it ends): no resolve fails with the
    /// wait cycle.
    @Test(arguments: [false, true])
    func aWaitCycleMetAtAClaimInsideAHookStartsTheCallAgain(throughCapturedContainer: Bool) throws {
        let bothClaimed = StartBarrier(parties: 2)
        let deadline = Date(timeIntervalSinceNow: 30)
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(Hooked.self) { _ in
            bothClaimed.arriveAndWait(deadline: deadline)
            return Hooked()
        }
        .scope(.container)
        .initCompleted { r, hooked in
            // Long enough for the other thread to be waiting for the hook gate.
            Thread.sleep(forTimeInterval: 0.2)
            hooked.partner = try (throughCapturedContainer ? parent : r).resolve(Partner.self)
        }
        parent.register(Partner.self) { r in
            bothClaimed.arriveAndWait(deadline: deadline)
            let partner = Partner()
            partner.hooked = try r.resolve(Hooked.self)
            return partner
        }
        .scope(.container)

        let failures = FailureLog()
        let finished = raceThreads(2) { index in
            do {
                if index == 0 { _ = try child.resolve(Hooked.self) } else { _ = try child.resolve(Partner.self) }
            } catch {
                failures.note(error)
            }
        }
        try #require(finished)
        #expect(failures.all.isEmpty, "\(failures.all)")
        let hooked = try child.resolve(Hooked.self)
        #expect(hooked.partner != nil)
        // One Partner is made and handed out, through the resolver or a captured container:
        // the first one published is the one every resolve gets.
        #expect(hooked.partner === (try child.resolve(Partner.self)))
        #expect(hooked.partner?.hooked === hooked)
    }

    /// Threads resolving synchronously and tasks resolving with `await` share one singleton:
    /// 8 threads released together (every other one awaiting from a task it starts), in each of
    /// many fresh containers (`FactorySpeed.rounds`).
    @Test(arguments: FactorySpeed.allCases)
    func aSingletonIsMadeOnceWhenThreadsAndTasksAskForItTogether(speed: FactorySpeed) async throws {
        try await rounds(speed.rounds) { round in
            let made = LockedCounter()
            let container = Container()
            container.register(Leaf.self) { _ in
                made.increment()
                speed.work()
                return Leaf()
            }
            .scope(.container)
            let seen = IdentityCollector()
            let failures = LockedCounter()
            let finished = await raceThreadsAsync(8) { index in
                if index.isMultiple(of: 2) {
                    if let leaf = try? container.resolve(Leaf.self) { seen.insert(leaf) } else { failures.increment() }
                } else {
                    awaitOnThisThread {
                        if let leaf = try? await container.async.resolve(Leaf.self) {
                            seen.insert(leaf)
                        } else {
                            failures.increment()
                        }
                    }
                }
            }
            try #require(finished, "round \(round): the threads and tasks did not finish in time (a deadlock?)")
            try #require(failures.value == 0, "round \(round): \(failures.value) resolves threw")
            try #require(made.value == 1, "round \(round): the singleton was made \(made.value) times")
            try #require(seen.distinctCount == 1, "round \(round): \(seen.distinctCount) different instances handed out")
        }
    }

    @Test func aHookThatThrowsLeavesNothingCached() throws {
        let made = Counter()
        let attempts = Counter()
        let container = Container()
        container.register(Hooked.self) { _ in
            made.increment()
            return Hooked()
        }
        .scope(.container)
        .initCompleted { _, _ in
            attempts.increment()
            if attempts.value < 3 { throw HookFailure() }
        }
        for _ in 0..<2 {
            let error = try #require(throws: ResolutionError.self) { try container.resolve(Hooked.self) }
            #expect(error.summary == "an initCompleted hook of Hooked threw: the hook failed")
        }
        let hooked = try container.resolve(Hooked.self)
        #expect(try container.resolve(Hooked.self) === hooked)
        #expect(made.value == 3, "made again after each failure, then kept")
    }

    @Test(arguments: [Scope.graph, .container, Scope("session"), .weak])
    func aBackReferenceSetInTheInnerObjectsHookClosesTheCycle(scope: Scope) throws {
        let container = Container()
        container.register(Parent.self) { r in try Parent(child: r.resolve()) }.scope(scope)
        container.register(Child.self) { _ in Child() }
            .scope(scope)
            .initCompleted { r, child in child.parent = try r.resolve(Parent.self) }
        let parent = try container.resolve(Parent.self)
        #expect(parent.child.parent === parent)
    }

    @Test(arguments: [Scope.graph, .container])
    func aBackReferenceAcrossFourObjectsClosesTheCycle(scope: Scope) throws {
        let container = Container()
        container.register(Top.self) { r in try Top(middle: r.resolve()) }.scope(scope)
        container.register(Middle.self) { r in try Middle(grandchild: r.resolve()) }.scope(scope)
        container.register(Grandchild.self) { _ in Grandchild() }.scope(scope)
        container.register(Bottom.self) { _ in Bottom() }
            .scope(scope)
            .initCompleted { r, bottom in bottom.top = try r.resolve(Top.self) }
        container.register(Parent.self) { r in
            let top = try r.resolve(Top.self)
            let bottom = try r.resolve(Bottom.self)
            #expect(bottom.top === top)
            return Parent(child: Child())
        }
        _ = try container.resolve(Parent.self)
    }

    @Test func aConstructorOnlyCycleIsStillAnError() throws {
        let container = Container()
        container.register(Parent.self) { r in try Parent(child: r.resolve()) }
        container.register(Child.self) { r in
            _ = try r.resolve(Parent.self)
            return Child()
        }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Parent.self) }
        #expect(error.identifier == "circular-dependency")
    }

    @Test func aTransientHookThatAsksForItsOwnTypeIsACycle() throws {
        let container = Container()
        container.register(Hooked.self) { _ in Hooked() }
            .scope(.transient)
            .initCompleted { r, _ in _ = try r.resolve(Parent.self) }
        container.register(Parent.self) { r in
            _ = try r.resolve(Hooked.self)
            return Parent(child: Child())
        }
        .scope(.transient)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Parent.self) }
        #expect(error.identifier == "circular-dependency")
    }

    @Test func lazyAndProviderUsedDuringTheResolveGiveTheGraphsInstance() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Pair.self) { r in try Pair(first: r.resolve(), second: r.resolve(), direct: r.resolve()) }
        container.register(Branch.self) { r in
            let provider = try r.resolve(Provider<Leaf>.self)
            return try Branch(left: provider(), right: r.resolve())
        }
        let pair = try container.resolve(Pair.self)
        #expect(pair.firstLeaf === pair.direct)
        #expect(pair.secondLeaf === pair.direct)
        let branch = try container.resolve(Branch.self)
        #expect(branch.left === branch.right)
        #expect(try pair.first.value === pair.direct, "a Lazy keeps what it resolved")
    }

    @Test func aLazyUsedAfterTheResolveGivesTheGraphsInstanceWhileItLivesAProviderANewOne() throws {
        final class Owner: @unchecked Sendable {
            let leaf: Leaf
            let first: Lazy<Leaf>
            let second: Lazy<Leaf>
            let provider: Provider<Leaf>
            init(leaf: Leaf, first: Lazy<Leaf>, second: Lazy<Leaf>, provider: Provider<Leaf>) {
                self.leaf = leaf
                self.first = first
                self.second = second
                self.provider = provider
            }
        }
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Owner.self) { r in
            try Owner(leaf: r.resolve(), first: r.resolve(), second: r.resolve(), provider: r.resolve())
        }
        let owner = try container.resolve(Owner.self)
        #expect(try owner.first.value === owner.leaf)
        #expect(try owner.second.value === owner.leaf)
        #expect(try owner.provider() !== owner.leaf, "a provider called later makes a new resolve, as in Swinject")

        // Where the graph made none, each call is a resolve of its own.
        final class Alone: @unchecked Sendable {
            let provider: Provider<Leaf>
            init(provider: Provider<Leaf>) { self.provider = provider }
        }
        container.register(Alone.self) { r in try Alone(provider: r.resolve()) }
        let alone = try container.resolve(Alone.self)
        #expect(try alone.provider() !== alone.provider())
    }

    @Test func aSingletonHoldingAProviderALazyOrItsResolverDoesNotKeepItsContainerAlive() throws {
        weak var weakContainer: Container?
        var holder: Holder?
        do {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            container.register(Holder.self) { r in try Holder(resolver: r) }.scope(.container)
            holder = try container.resolve(Holder.self)
            weakContainer = container
        }
        #expect(weakContainer == nil)
        let kept = try #require(holder)
        for error in [
            #expect(throws: ResolutionError.self) { try kept.provider() },
            #expect(throws: ResolutionError.self) { try kept.lazy.value },
            #expect(throws: ResolutionError.self) { try kept.resolver.resolve(Leaf.self) },
        ] {
            #expect(error?.identifier == "container-released")
            #expect(error?.summary == "the container to resolve Leaf from has been freed")
        }
    }

    @Test func aResolverUsedOnAnotherThreadWhileAndAfterItsResolutionRunsStartsCallsOfItsOwn() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let resolved = LockedCounter()
        let failed = LockedCounter()
        container.register(Holder.self) { r in
            let resolver = UncheckedBox(r)
            Thread {
                started.signal()
                for _ in 0..<200 {
                    if (try? resolver.value.resolve(Leaf.self)) != nil { resolved.increment() } else { failed.increment() }
                }
                finished.signal()
            }.start()
            // Bounded: if the thread never starts, `finished` below fails the test.
            _ = started.wait(timeout: .now() + 10)
            return try Holder(resolver: r)
        }
        let holder = try container.resolve(Holder.self)
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(resolved.value == 200)
        #expect(failed.value == 0)
        #expect(try holder.resolver.resolve(Leaf.self) !== holder.resolver.resolve(Leaf.self))
    }

    @Test func aNameWithQuotesIsEscapedInTheFix() throws {
        let container = Container()
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(Leaf.self, name: #"say "hi"\now"#)
        }
        #expect(error.fix.contains(#"container.register(Leaf.self, name: "say \"hi\"\\now")"#), "\(error.fix)")
        #expect(error.key.description == #"Leaf (name: "say \"hi\"\\now")"#)
    }

    @Test func aWeakRegistrationOfAValueNamesItsKeyOnceInThePath() throws {
        let container = Container()
        container.register(Point.self) { _ in Point(x: 1) }.scope(.weak)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Point.self) }
        #expect(error.identifier == "weak-scope-requires-class")
        #expect(error.path == [ServiceKey(Point.self)])
    }

    @Test func theAsyncPathNamesErrorsAsTheSynchronousOneDoes() async throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.registerAsync(Animal.self) { r in
            _ = try await r.resolve(Leaf.self)
            throw SampleError()
        }
        let sync = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self) }
        #expect(sync.identifier == "requires-await")
        container.registerAsync(Food.self) { _ in throw SampleError() }.scope(.container)
        for key in [ServiceKey(Animal.self), ServiceKey(Food.self)] {
            do {
                _ = key == ServiceKey(Animal.self)
                    ? try await container.async.resolve(Animal.self) as AnyObject
                    : try await container.async.resolve(Food.self) as AnyObject
                Issue.record("expected an error")
            } catch let error as ResolutionError {
                #expect(error.identifier == "factory-failed")
                #expect(error.path == [key])
            }
        }
    }
}

private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What a factory receives keeps nothing alive beyond its container.
@Suite("Lifetimes of what a factory receives")
struct FactoryLifetimeTests {
    final class KeepsResolver {
        let resolver: any Resolver
        init(_ resolver: any Resolver) { self.resolver = resolver }
    }

    final class KeepsProviderAndLazy {
        let provider: Provider<Leaf>
        let lazy: Lazy<Leaf>
        init(provider: Provider<Leaf>, lazy: Lazy<Leaf>) {
            self.provider = provider
            self.lazy = lazy
        }
    }

    final class KeepsAsyncResolver: @unchecked Sendable {
        let resolver: AsyncResolver
        init(_ resolver: AsyncResolver) { self.resolver = resolver }
    }

    /// Resolves `Kept` from a container made inside, and gives weak references to both.
    private func released<Kept: AnyObject>(
        _ register: (Container) -> Void, resolve: (Container) throws -> Kept
    ) throws -> (container: Bool, instance: Bool) {
        weak var weakContainer: Container?
        weak var weakInstance: Kept?
        try {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            register(container)
            let instance = try resolve(container)
            weakContainer = container
            weakInstance = instance
        }()
        return (weakContainer == nil, weakInstance == nil)
    }

    @Test(arguments: [Scope.container, .graph, .transient, Scope("session")])
    func aSingletonThatKeepsItsResolverDoesNotOutliveItsContainer(_ scope: Scope) throws {
        let freed = try released({ $0.register(KeepsResolver.self) { r in KeepsResolver(r) }.scope(scope) }) {
            try $0.resolve(KeepsResolver.self)
        }
        #expect(freed.container, "the container is freed")
        #expect(freed.instance, "the instance that kept its resolver is freed with the container")
    }

    @Test func aSingletonThatKeepsAProviderAndALazyDoesNotOutliveItsContainer() throws {
        let freed = try released({
            $0.register(KeepsProviderAndLazy.self) { r in try KeepsProviderAndLazy(provider: r.resolve(), lazy: r.resolve()) }
                .scope(.container)
        }) { try $0.resolve(KeepsProviderAndLazy.self) }
        #expect(freed.container)
        #expect(freed.instance)
    }

    @Test func aDependencyThatKeepsTheResolverDoesNotKeepItsSingletonAlive() throws {
        final class Root {
            let keeper: KeepsResolver
            init(keeper: KeepsResolver) { self.keeper = keeper }
        }
        let freed = try released({
            $0.register(KeepsResolver.self) { r in KeepsResolver(r) }
            $0.register(Root.self) { r in try Root(keeper: r.resolve()) }.scope(.container)
        }) { try $0.resolve(Root.self) }
        #expect(freed.container)
        #expect(freed.instance)
    }

    @Test func anAsyncSingletonThatKeepsItsResolverDoesNotOutliveItsContainer() async throws {
        weak var weakContainer: Container?
        weak var weakInstance: KeepsAsyncResolver?
        try await {
            let container = Container()
            container.registerAsync(KeepsAsyncResolver.self) { r in KeepsAsyncResolver(r) }.scope(.container)
            let instance = try await container.async.resolve(KeepsAsyncResolver.self)
            weakContainer = container
            weakInstance = instance
        }()
        #expect(weakContainer == nil)
        #expect(weakInstance == nil)
    }

    @Test func aKeptResolverStillResolvesWhileItsContainerLives() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }.scope(.container)
        container.register(KeepsResolver.self) { r in KeepsResolver(r) }.scope(.container)
        let keeper = try container.resolve(KeepsResolver.self)
        #expect(try keeper.resolver.resolve(Leaf.self) === container.resolve(Leaf.self))
    }
}

/// The errors some threads threw, in the order they were noted.
private final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func note(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        errors.append("\(error)")
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }
}
