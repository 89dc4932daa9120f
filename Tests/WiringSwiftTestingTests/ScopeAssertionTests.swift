import Testing
import WiringSwiftTesting
import WiringTestHelpers

// assertScope checks what a scope does, not its label, and leaves nothing behind.

@Suite struct ScopeAssertionTests {
    @Test func passesForEachScopeThatBehavesAsRegistered() {
        let test = TestContainer(base: makeScopedContainer())
        assertScope(Database.self, is: .container, in: test)
        assertScope(RequestContext.self, is: .graph, in: test)
        assertScope(Screen.self, is: .transient, in: test)
        assertScope(Session.self, is: .session, in: test)
        assertScope(Database.self, is: .container, in: makeScopedContainer())   // a Container too
    }

    @Test func checksARegistrationThatTakesRuntimeArguments() {
        let container = Container()
        container.register(Screen.self) { (_, id: String) in Screen() }            // .transient: it takes arguments
        container.register(Database.self) { (_, url: String) in Database() }.scope(.container)
        let test = TestContainer(base: container)
        assertScope(Screen.self, arguments: "A-1", is: .transient, in: test)
        assertScope(Database.self, arguments: "db://main", is: .container, in: test)

        let line = #line + 1
        let failures = expectFailures { assertScope(Screen.self, arguments: "A-1", is: .container, in: test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message.hasPrefix(
            "expected Screen (arguments: String) to be shared across resolves (.container), but two resolves gave different instances"
        ) == true, "\(failures)")
    }

    /// A live-only registration `assertScope` meets fails the assertion, once: the probe resolves
    /// it for the assertion, so the refusal is not also a `live-only` finding of the test, nor a
    /// warning of the test container.
    @Test func aLiveOnlyRegistrationFailsTheAssertionOnceAndIsNoFinding() {
        let test = TestContainer(base: makeFindingsApp())
        let failures = expectFailures(count: 1) { assertScope(LiveGateway.self, is: .transient, in: test) }
        #expect(failures.first?.message.contains("LiveGateway") == true, "\(failures)")
        #expect(test.warnings.isEmpty, "\(test.warnings)")
    }

    @Test func weakSharesWhileHeldAndIsReleasedAfterwards() {
        let container = Container()
        container.register(Screen.self) { _ in Screen() }.scope(.weak)
        assertScope(Screen.self, is: .weak, in: container)
        assertScope(Screen.self, is: .weak, in: TestContainer(base: container))
    }

    @Test func checksTheBehaviourNotTheLabel() {
        // Registered .transient, but every resolve gets the one instance: it behaves as .container.
        let shared = Database()
        let container = Container()
        container.register(Database.self) { _ in shared }.scope(.transient)
        assertScope(Database.self, is: .container, in: container)
        // An override keeps the scope of the registration it replaces.
        let test = TestContainer(base: makeScopedContainer())
        test.override(Database.self) { _ in Database() }
        assertScope(Database.self, is: .container, in: test)
    }

    @Test func failsWhenASingletonIsMadeEachTime() {
        let container = makeScopedContainer()
        container.register(Database.self) { _ in Database() }.scope(.transient)
        let site = siteOf(Database.self, in: container)
        let line = #line + 1
        let failures = expectFailures { assertScope(Database.self, is: .container, in: container) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            expected Database to be shared across resolves (.container), but two resolves gave different instances
              observed: it behaves like .transient: a new instance every time
              resolved from: .transient, registered at \(site)
              fix: register Database with `.scope(.container)`, or expect the scope it behaves like
            """)
    }

    @Test func failsWhenAGraphServiceIsShared() {
        let test = TestContainer(base: makeScopedContainer())
        let line = #line + 1
        let failures = expectFailures { assertScope(Database.self, is: .graph, in: test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message.hasPrefix("""
            expected Database to be a new instance for each resolve (.graph), but two resolves gave the same instance
              observed: it behaves like .container or a custom scope: kept by the container
            """) == true)
    }

    @Test func failsWhenATransientServiceIsSharedWithinAResolve() {
        let test = TestContainer(base: makeScopedContainer())
        let failures = expectFailures { assertScope(RequestContext.self, is: .transient, in: test) }
        #expect(failures.first?.message.hasPrefix("""
            expected RequestContext to be a new instance every time (.transient), but resolving it twice inside one resolve gave the same instance
              observed: it behaves like .graph: one instance per resolve, shared within it
            """) == true)
    }

    @Test func failsWhenAGraphServiceIsNotSharedWithinAResolve() {
        let test = TestContainer(base: makeScopedContainer())
        let failures = expectFailures { assertScope(Screen.self, is: .graph, in: test) }
        #expect(failures.first?.message.hasPrefix(
            "expected Screen to be shared within one resolve (.graph), but resolving it twice inside one resolve gave two instances")
            == true)
    }

    @Test func failsWhenAWeakServiceIsKept() {
        let test = TestContainer(base: makeScopedContainer())
        let failures = expectFailures { assertScope(Database.self, is: .weak, in: test) }
        #expect(failures.first?.message.hasPrefix("""
            expected Database to be released when the last holder lets go (.weak), but it is still alive: the container keeps it
            """) == true)
    }

    @Test func failsWhenASingletonIsReleased() {
        let container = Container()
        container.register(Screen.self) { _ in Screen() }.scope(.weak)
        let failures = expectFailures { assertScope(Screen.self, is: .container, in: container) }
        #expect(failures.first?.message.hasPrefix("""
            expected the container to keep Screen when nothing else holds it (.container), but it was released
              observed: it behaves like .weak: shared while held, released when nobody holds it
            """) == true)
    }

    @Test func failsWhenACustomScopeIsNotReset() {
        let test = TestContainer(base: makeScopedContainer())
        let failures = expectFailures { assertScope(Database.self, is: .session, in: test) }
        #expect(failures.first?.message.hasPrefix("""
            expected a new Database after resetScope(Scope("session")), but the next resolve gave the same instance
              observed: it behaves like .container: kept by the container, not dropped by that reset
            """) == true)
    }

    @Test func saysAValueTypeCannotBeChecked() {
        let test = TestContainer(base: makeScopedContainer())
        let line = #line + 1
        let failures = expectFailures { assertScope(Settings.self, is: .container, in: test) }
        #expect(failures.map(\.line) == [line])
        #expect(failures.first?.message == """
            cannot check that Settings is .container: it resolves to Settings, a struct, and a value has no identity to tell a shared instance from a new one
              fix: check the scope of a class service, or test what sharing it should achieve
            """)
    }

    @Test func failsWithTheErrorWhenTheServiceCannotBeResolved() {
        let test = TestContainer(base: Container())
        let failures = expectFailures { assertScope(Database.self, is: .container, in: test) }
        #expect(failures.first?.message == "cannot check that Database is .container: it could not be resolved:\n"
            + indented(ResolutionErrorText.of(Database.self, in: test)))
    }

    @Test func leavesNoStateBehindInTheTestContainer() throws {
        let test = TestContainer(base: makeScopedContainer())
        test.override(Database.self) { _ in Database() }
        let before = test.unusedRegistrations()
        assertScope(Database.self, is: .container, in: test)
        assertScope(RequestContext.self, is: .graph, in: test)
        #expect(test.trace.roots.isEmpty)
        #expect(test.resolutionCount(of: Database.self) == 0)
        #expect(test.unusedRegistrations() == before)
        // No singleton was kept: the first real resolve makes Database, numbered #1.
        _ = try test.resolve(Database.self)
        #expect(test.trace.render() == "Database .container new #1 (override \"test\")")
    }

    @Test func doesNotMakeSingletonsInAContainer() throws {
        let made = Locked(0)
        let container = Container()
        container.register(Database.self) { _ in
            made.withLock { $0 += 1 }
            return Database()
        }
        .scope(.container)
        // Checked before anything is kept: the check makes its own instances, and keeps none.
        assertScope(Database.self, is: .container, in: container)
        let madeByCheck = made.withLock { $0 }
        #expect(madeByCheck > 0)
        let first = try container.resolve(Database.self)
        #expect(made.withLock { $0 } == madeByCheck + 1, "the first resolve after the check found an instance kept")
        #expect(try container.resolve(Database.self) === first)
    }

    @Test func leavesTheInstanceAContainerKeptAlone() throws {
        let container = Container()
        container.register(Database.self) { _ in Database() }.scope(.container)
        let first = try container.resolve(Database.self)
        assertScope(Database.self, is: .container, in: container)
        #expect(try container.resolve(Database.self) === first)
    }
}
