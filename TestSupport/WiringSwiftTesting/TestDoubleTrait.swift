import Testing
import Wiring
import WiringTestSupport

/// Installs test doubles, overrides or fakes, in the test container of each test it applies
/// to. Made by ``Testing/Trait/override(_:name:file:line:factory:)``,
/// ``Testing/Trait/override(_:name:instance:file:line:)``,
/// ``Testing/Trait/replace(_:with:file:line:)``, ``Testing/Trait/fakes(file:line:_:)``, and, for
/// the ready-made doubles, ``Testing/Trait/sequentialUUIDs(file:line:)`` and
/// ``Testing/Trait/fixedDate(_:file:line:)``.
///
/// Listed after `.testContainer { … }`, or on a test of a suite that has one, it changes the
/// test's own container. Listed before it, on a suite for instance, it is applied as the
/// container is made. Under a container someone else bound to `TestContainer.current`, which
/// other tests may share, overrides and fakes go into a layer only this test's task sees.
public struct TestDoubleTrait: TestTrait, SuiteTrait, TestScoping {
    let doubles: TestDoubles

    /// Applied to every test of a suite.
    public var isRecursive: Bool { true }

    /// A scope for each test case only.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with the doubles installed in its test container.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        TestIdentification.install()
        guard let container = TestContainer.current else {
            // No container yet: a `.testContainer` further in applies the doubles when it makes one.
            let pending = doubles.pending()
            try await PendingTestDoubles.$current.withValue(PendingTestDoubles.current + [pending]) {
                try await function()
            }
            if !pending.wasApplied {
                Issue.record(
                    Comment(rawValue: """
                        \(doubles.description) found no test container to apply to
                          fix: add `.testContainer { makeAppContainer() }` to the test or its suite
                        """),
                    sourceLocation: doubles.sourceLocation)
            }
            return
        }
        if let owned = PendingTestDoubles.ownedContainer, owned.container === container {
            // This test case's own container, made by `.testContainer`: nobody else sees it.
            owned.apply(doubles)
            try await function()
        } else {
            try await container.withOverrides({ layer in doubles.apply(to: layer, of: container) }) {
                try await function()
            }
        }
    }
}

extension Trait where Self == TestDoubleTrait {
    /// Replaces a registration in the test container of each test, at every depth of the graph.
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .override(Network.self) { _ in FakeNetwork() })
    /// func checkout() throws { … }
    /// ```
    ///
    /// On a suite, it applies to every test of it. Like `test.override`, the double keeps the
    /// scope of the registration it replaces, and the factory need not be `@Sendable`. What the
    /// test takes on: the factory runs for every test it applies to, in parallel when they run
    /// in parallel; a double it captures is shared by them, so capture one only if it is safe
    /// to share across threads.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - file: Where the override is written, shown in traces and reports; leave the default.
    ///   - line: The line of the override; leave the default.
    ///   - factory: Makes the test double.
    public static func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (any Resolver) throws -> Service
    ) -> Self {
        // The test vouches for what the factory captures (see above); traits are `Sendable`.
        let double = UncheckedSendable(factory)
        return TestDoubleTrait(doubles: TestDoubles(
            description: "`.override(\(ServiceKey(serviceType, name: name)))`", file: file, line: line,
            toContainer: { $0.override(serviceType, name: name, file: file, line: line, factory: double.value) },
            toLayer: { $0.override(serviceType, name: name, file: file, line: line, factory: double.value) }))
    }

    /// Replaces a registration in the test container of each test with a ready double, which
    /// every resolution of that test returns.
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .override(Clock.self, instance: FixedClock()))
    /// func receiptIsDated() throws { … }
    /// ```
    ///
    /// What the test takes on: the one instance is shared by every test the trait applies to,
    /// which may run in parallel; give one that is safe to share, or use the factory form for a
    /// double of each test's own.
    /// - Parameters:
    ///   - serviceType: The type to replace.
    ///   - name: The name of the registration to replace, if any.
    ///   - instance: The test double.
    ///   - file: Where the override is written, shown in traces and reports; leave the default.
    ///   - line: The line of the override; leave the default.
    public static func override<Service>(
        _ serviceType: Service.Type,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Self {
        let double = UncheckedSendable(instance)
        return TestDoubleTrait(doubles: TestDoubles(
            description: "`.override(\(ServiceKey(serviceType, name: name)), instance: …)`", file: file, line: line,
            toContainer: { $0.override(serviceType, name: name, instance: double.value, file: file, line: line) },
            toLayer: { $0.override(serviceType, name: name, instance: double.value, file: file, line: line) }))
    }

    /// Replaces a module the app's container applied with another, in the test container of
    /// each test (see `TestContainer.replace(_:with:)`): the replaced module's registrations are
    /// hidden, the replacement's answer instead, and the trace says
    /// `(module FakeNetworkModule, replaces NetworkModule)`.
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .replace(NetworkModule.self, with: FakeNetworkModule()))
    /// func checkoutOffline() throws { … }
    /// ```
    ///
    /// A module the app's container never applied fails the test, naming the modules it did apply.
    /// - Parameters:
    ///   - replaced: The module's type, as the app's container applied it.
    ///   - replacement: The module whose registrations answer instead.
    ///   - file: Where the trait is written, shown in reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    public static func replace(
        _ replaced: any Module.Type,
        with replacement: any Module,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Self {
        let module = UncheckedSendable(replacement)
        let replacedType = UncheckedSendable(replaced)
        let description = "`.replace(\(replaced), with: \(type(of: replacement))())`"
        let location = TestDoubles(description: description, file: file, line: line, toContainer: { _ in }, toLayer: nil)
            .sourceLocation
        @Sendable func failing(_ body: () throws -> Void) {
            do {
                try body()
            } catch {
                Issue.record(Comment(rawValue: "\(description): \(error)"), sourceLocation: location)
            }
        }
        return TestDoubleTrait(doubles: TestDoubles(
            description: description, file: file, line: line,
            toContainer: { test in failing { try test.replace(replacedType.value, with: module.value) } },
            toLayer: { layer in failing { try layer.replace(replacedType.value, with: module.value) } }))
    }

    /// Registers default fakes in the test container of each test: used only where nothing is
    /// registered, and listed by `test.fakes.fakedKeys` (see `assertNoFakesUsed`).
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }, .fakes { fakes in
    ///     fakes.register(Analytics.self) { NoopAnalytics() }
    /// })
    /// func checkout() throws { … }
    /// ```
    ///
    /// `register` need not be `@Sendable`; as with `.override`, a fake it captures is shared by
    /// every test the trait applies to.
    /// - Parameters:
    ///   - file: Where the trait is written, shown in reports; leave the default.
    ///   - line: The line of the trait; leave the default.
    ///   - register: Registers the fakes.
    public static func fakes(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ register: @escaping (Fakes) -> Void
    ) -> Self {
        let registering = UncheckedSendable(register)
        return TestDoubleTrait(doubles: TestDoubles(
            description: "`.fakes { … }`", file: file, line: line,
            toContainer: { registering.value($0.fakes) },
            toLayer: { layer in layer.layerFakes.map { registering.value($0) } }))
    }
}
