import Testing
import Wiring
import WiringAssertions
import WiringTestSupport

// The assertions again, taking a Swift Testing `SourceLocation` instead of `#fileID`, `#filePath`,
// `#line` and `#column`: for helpers of your own that take a `sourceLocation` and pass it on, so a
// failure points at the helper's caller. The location is required here, so a call without one is
// never ambiguous with the functions these forward to. Under XCTest, which takes a file only as a
// `StaticString`, the location is written at the start of the failure message instead.

/// Resolves a service, failing the running test at `sourceLocation` when it cannot be resolved.
///
/// ```swift
/// func resolveCheckout(in test: TestContainer, sourceLocation: SourceLocation = #_sourceLocation) -> Checkout? {
///     assertResolves(Checkout.self, in: test, sourceLocation: sourceLocation)
/// }
/// ```
/// - Returns: The instance, or `nil` after recording the failure.
@discardableResult
public func assertResolves<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) -> Service? {
    checkResolves(
        serviceType, name: name, arguments: repeat each arguments, in: resolver, at: CallSite(sourceLocation))
}

/// Resolves a service and checks its concrete type, failing the running test at `sourceLocation` otherwise.
/// - Returns: The instance as `concreteType`, or `nil` after recording the failure.
@discardableResult
public func assertResolves<Service, Concrete, each Argument>(
    _ serviceType: Service.Type,
    to concreteType: Concrete.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) -> Concrete? {
    checkResolves(
        serviceType, to: concreteType, name: name, arguments: repeat each arguments, in: resolver,
        at: CallSite(sourceLocation))
}

/// Resolves a service with `await`, failing the running test at `sourceLocation` when it cannot be resolved.
/// - Returns: The instance, or `nil` after recording the failure.
@discardableResult
nonisolated(nonsending)
public func assertResolvesAsync<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) async -> Service? {
    await checkResolvesAsync(
        serviceType, name: name, arguments: repeat each arguments, in: resolver, at: CallSite(sourceLocation))
}

/// Checks, with `await`, that a service behaves as `scope` promises, failing the running test at
/// `sourceLocation` otherwise.
nonisolated(nonsending)
public func assertScopeAsync<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    is scope: Scope,
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) async {
    await checkScopeAsync(
        serviceType, name: name, arguments: repeat each arguments, is: scope, in: resolver,
        at: CallSite(sourceLocation))
}

/// Checks that a service behaves as `scope` promises, failing the running test at `sourceLocation` otherwise.
public func assertScope<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    is scope: Scope,
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) {
    checkScope(
        serviceType, name: name, arguments: repeat each arguments, is: scope, in: resolver,
        at: CallSite(sourceLocation))
}

/// Verifies every registration of a test container, failing the running test at `sourceLocation`
/// with the whole report when anything is wrong or left unchecked.
public func assertWiringComplete(
    _ test: TestContainer,
    samples: (inout VerificationSamples) -> Void = { _ in },
    sourceLocation: SourceLocation
) {
    checkWiringComplete(test, samples: samples, at: CallSite(sourceLocation))
}

/// Verifies every registration of a container, failing the running test at `sourceLocation`
/// with the whole report when anything is wrong or left unchecked.
public func assertWiringComplete(
    _ container: Container,
    samples: (inout VerificationSamples) -> Void = { _ in },
    sourceLocation: SourceLocation
) {
    checkWiringComplete(TestContainer(base: container), samples: samples, at: CallSite(sourceLocation))
}

/// Verifies every registration of a test container, awaiting those whose factory must be
/// awaited, failing the running test at `sourceLocation` with the whole report when anything
/// is wrong or left unchecked.
@MainActor
public func assertWiringCompleteAsync(
    _ test: TestContainer,
    samples: (inout VerificationSamples) -> Void = { _ in },
    sourceLocation: SourceLocation
) async {
    checkWiringComplete(await test.verifyWiringAsync(samples: samples), at: CallSite(sourceLocation))
}

/// Fails the running test at `sourceLocation`, listing the registrations nothing resolved.
public func assertNoUnusedRegistrations(
    _ test: TestContainer,
    ignoring: [ServiceKey] = [],
    sourceLocation: SourceLocation
) {
    checkNoUnusedRegistrations(test, ignoring: ignoring, at: CallSite(sourceLocation))
}

/// Fails the running test at `sourceLocation`, listing the keys nothing can resolve.
public func assertRegistered(
    _ keys: [ServiceKey],
    in resolver: any Resolver,
    sourceLocation: SourceLocation
) {
    checkRegistered(keys, in: resolver, at: CallSite(sourceLocation))
}

/// Fails the running test at `sourceLocation`, listing the keys a fake stood in for.
public func assertNoFakesUsed(
    _ test: TestContainer,
    sourceLocation: SourceLocation
) {
    checkNoFakesUsed(test, at: CallSite(sourceLocation))
}

/// Fails the running test at `sourceLocation`, listing every object the test container made
/// that is still alive once the test container let go of what it kept (`test.leakedInstances()`).
public func assertNoLeakedInstances(
    _ test: TestContainer,
    sourceLocation: SourceLocation
) {
    checkNoLeakedInstances(test, at: CallSite(sourceLocation))
}

/// Fails the running test at `sourceLocation`, listing every warning of `test.warnings`.
public func assertNoWiringWarnings(
    _ test: TestContainer,
    sourceLocation: SourceLocation
) {
    checkNoWiringWarnings(test, at: CallSite(sourceLocation))
}

/// Compares a trace with its text snapshot, failing the running test at `sourceLocation` with a
/// line diff when they differ. The snapshot sits beside the file of `sourceLocation`.
public func assertTraceSnapshot(
    _ trace: ResolutionTrace,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    testName: String? = nil,
    function: String = #function,
    sourceLocation: SourceLocation
) {
    checkTraceSnapshot(
        trace, named: name, snapshotDirectory: snapshotDirectory, record: record,
        at: CallSite(sourceLocation, function: function, testName: testName))
}

/// Compares the wiring manifest of a test container with its text snapshot, failing the running
/// test at `sourceLocation` with a line diff when they differ. The snapshot sits beside the file
/// of `sourceLocation`.
public func assertWiringSnapshot(
    _ test: TestContainer,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    sourceLocation: SourceLocation
) {
    checkWiringSnapshot(
        test, named: name, snapshotDirectory: snapshotDirectory, record: record, samples: samples,
        at: CallSite(sourceLocation, function: function, testName: testName))
}

/// Compares the wiring manifest of a test container with its text snapshot, building
/// registrations whose factory must be awaited (`test.wiringManifestAsync()`), failing the
/// running test at `sourceLocation` with a line diff when they differ.
@MainActor
public func assertWiringSnapshotAsync(
    _ test: TestContainer,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    sourceLocation: SourceLocation
) async {
    await checkWiringSnapshotAsync(
        test, named: name, snapshotDirectory: snapshotDirectory, record: record, samples: samples,
        at: CallSite(sourceLocation, function: function, testName: testName))
}

/// Compares the wiring manifest of an app's container with its text snapshot, failing the
/// running test at `sourceLocation` with a line diff when they differ.
public func assertWiringSnapshot(
    _ container: Container,
    named name: String,
    snapshotDirectory: String? = nil,
    record: Bool = false,
    samples: (inout VerificationSamples) -> Void = { _ in },
    testName: String? = nil,
    function: String = #function,
    sourceLocation: SourceLocation
) {
    checkWiringSnapshot(
        TestContainer(base: container), named: name, snapshotDirectory: snapshotDirectory, record: record,
        samples: samples, at: CallSite(sourceLocation, function: function, testName: testName))
}
