import Wiring

/// Checks that a service behaves as a scope promises, failing the running test at this line
/// with what was observed otherwise. It checks the behaviour, not the label: an override, a
/// forwarding registration or a factory that hands out a global all count as what they do.
///
/// ```swift
/// assertScope(Database.self, is: .container, in: test)
/// assertScope(Cart.self, is: .graph, in: container)
/// assertScope(Session.self, is: .session, in: test)        // a custom scope
/// ```
///
/// What is checked, for each scope:
/// - `.transient`: a new instance on every resolve, also twice inside one resolve.
/// - `.graph`: the same instance twice inside one resolve, a new one for each resolve.
/// - `.container`: the same instance across resolves and from a child container, kept while
///   nothing else holds it.
/// - `.weak`: the same instance while one is held, released when the last holder lets go.
/// - a custom scope: the same instance across resolves, a new one after `resetScope`.
///
/// The service is resolved in a throw-away copy of the container's lookup that keeps its own
/// instances and records nothing, so the check leaves no singleton, trace entry, resolution
/// count or used registration behind: assertions that follow see the container as it was. Its
/// factories do run, as `verifyWiring()` runs them. A value type has no identity to compare,
/// so asserting the scope of one fails and says so.
/// - Parameters:
///   - serviceType: The type to resolve.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments of a registration that takes them, passed to every
///     resolve of the check.
///   - scope: The scope whose behaviour to expect.
///   - resolver: A `TestContainer` or a `Container`.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertScope<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    is scope: Scope,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkScope(serviceType, name: name, arguments: repeat each arguments, is: scope, in: resolver, at: site)
}

package func checkScope<Service, each Argument>(
    _ serviceType: Service.Type, name: String?, arguments: repeat each Argument, is scope: Scope,
    in resolver: any Resolver, at site: CallSite
) {
    let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
    // Every resolve of the check passes the same arguments, so that a kept scope is asked for
    // the same instance each time.
    let values = (repeat each arguments)
    let request = ScopeRequest(key: key) { resolver in
        try resolver.resolve(serviceType, name: name, arguments: repeat each values)
    }
    guard let source = RegistrationLookup.source(of: resolver) else {
        recordFailure(
            "cannot check the scope of \(key) in a \(typeName(type(of: resolver))): "
                + "assertScope needs a Container or a TestContainer to resolve it in a sandbox", at: site)
        return
    }
    let observed = Result {
        // A live-only registration the probe meets is this assertion's to report, not a finding.
        try FindingRouter.$reportedElsewhere.withValue(.byTheAssertion) {
            try ScopeBehaviour.observe(request, in: source, resetting: ScopeBehaviour.resetting(scope, for: key, in: source))
        }
    }
    reportScope(observed, of: key, is: scope, in: resolver, at: site)
}

/// Checks, with `await`, that a service behaves as a scope promises, failing the running test at
/// this line with what was observed otherwise: ``assertScope(_:name:arguments:is:in:fileID:file:line:column:)``
/// for async registrations (`registerAsync`, `overrideAsync`) and main-actor ones resolved from
/// anywhere. Every resolve of the check is awaited; "twice inside one resolve" is two awaited
/// resolves inside one async factory.
///
/// ```swift
/// await assertScopeAsync(Database.self, is: .container, in: test)
/// await assertScopeAsync(CourseViewModel.self, arguments: "c-1", 2 as Int?, is: .transient, in: test)
/// ```
/// - Parameters:
///   - serviceType: The type to resolve.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments of a registration that takes them, passed to every
///     resolve of the check.
///   - scope: The scope whose behaviour to expect.
///   - resolver: A `TestContainer` or a `Container`.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
nonisolated(nonsending)
public func assertScopeAsync<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    is scope: Scope,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await checkScopeAsync(serviceType, name: name, arguments: repeat each arguments, is: scope, in: resolver, at: site)
}

nonisolated(nonsending)
package func checkScopeAsync<Service, each Argument>(
    _ serviceType: Service.Type, name: String?, arguments: repeat each Argument, is scope: Scope,
    in resolver: any Resolver, at site: CallSite
) async {
    let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
    let values = UncheckedSendable((repeat each arguments))
    let request = AsyncScopeRequest(key: key) { resolver in
        UncheckedSendable(try await resolver.resolve(serviceType, name: name, arguments: repeat each values.value))
    }
    guard let source = RegistrationLookup.source(of: resolver) else {
        recordFailure(
            "cannot check the scope of \(key) in a \(typeName(type(of: resolver))): "
                + "assertScopeAsync needs a Container or a TestContainer to resolve it in a sandbox", at: site)
        return
    }
    let observed: Result<ScopeBehaviour.Observation, any Error>
    do {
        observed = .success(try await FindingRouter.$reportedElsewhere.withValue(.byTheAssertion) {
            try await ScopeBehaviour.observe(request, in: source, resetting: ScopeBehaviour.resetting(scope, for: key, in: source))
        })
    } catch {
        observed = .failure(error)
    }
    reportScope(observed, of: key, is: scope, in: resolver, at: site)
}

/// Fails the running test at `site` when `observed` is not what `scope` promises for `key`.
private func reportScope(
    _ observed: Result<ScopeBehaviour.Observation, any Error>, of key: ServiceKey, is scope: Scope,
    in resolver: any Resolver, at site: CallSite
) {
    let behaviour: ScopeBehaviour
    switch observed {
    case .success(.behaviour(let observed)):
        behaviour = observed
    case .success(.valueInstance(let type, let kind)):
        recordFailure(
            "cannot check that \(key) is \(scope): it resolves to \(typeName(type)), a \(kind), "
                + "and a value has no identity to tell a shared instance from a new one\n"
                + "  fix: check the scope of a class service, or test what sharing it should achieve",
            at: site)
        return
    case .failure(let error):
        recordFailure("cannot check that \(key) is \(scope): it could not be resolved:\n\(indented("\(error)"))", at: site)
        return
    }
    guard let mismatch = behaviour.mismatch(with: scope, service: key.description) else { return }
    var lines = [mismatch, "  observed: it behaves like \(behaviour.summary)"]
    if let registration = RegistrationLookup.describe(key, in: resolver) {
        lines.append("  resolved from: \(registration)")
    }
    lines.append("  fix: register \(key.typeDescription) with `.scope(\(scope))`, or expect the scope it behaves like")
    recordFailure(lines.joined(separator: "\n"), at: site)
}
