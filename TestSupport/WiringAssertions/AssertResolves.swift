import Wiring

/// Resolves a service and fails the running test, at this line, with the full error when it
/// cannot be resolved.
///
/// ```swift
/// let network = assertResolves(Network.self, in: test)          // the instance, or nil after a failure
/// let named = assertResolves(Database.self, name: "replica", in: container)
/// let greeting = assertResolves(Greeting.self, arguments: "Ada", in: test)
/// ```
/// - Parameters:
///   - serviceType: The type to resolve.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments the registration takes, if any.
///   - resolver: A `TestContainer`, a `Container`, or any other resolver.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
/// - Returns: The instance, or `nil` after recording the failure.
@discardableResult
public func assertResolves<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Service? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return checkResolves(serviceType, name: name, arguments: repeat each arguments, in: resolver, at: site)
}

/// Resolves a service and checks that it is an instance of a given concrete type, failing the
/// running test at this line otherwise: the usual check that an override took effect.
///
/// ```swift
/// test.override(Network.self) { _ in FakeNetwork() }
/// let fake = assertResolves(Network.self, to: FakeNetwork.self, in: test)   // a FakeNetwork?, typed
/// ```
/// - Parameters:
///   - serviceType: The type to resolve.
///   - concreteType: The type the instance must have: a class, a subclass or any other type.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments the registration takes, if any.
///   - resolver: A `TestContainer`, a `Container`, or any other resolver.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
/// - Returns: The instance as `concreteType`, or `nil` after recording the failure.
@discardableResult
public func assertResolves<Service, Concrete, each Argument>(
    _ serviceType: Service.Type,
    to concreteType: Concrete.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Concrete? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return checkResolves(serviceType, to: concreteType, name: name, arguments: repeat each arguments, in: resolver, at: site)
}

package func checkResolves<Service, each Argument>(
    _ serviceType: Service.Type, name: String?, arguments: repeat each Argument, in resolver: any Resolver,
    at site: CallSite
) -> Service? {
    do {
        return try resolver.resolve(serviceType, name: name, arguments: repeat each arguments)
    } catch {
        let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
        recordFailure("\(key) could not be resolved:\n\(indented("\(error)"))", at: site)
        return nil
    }
}

package func checkResolves<Service, Concrete, each Argument>(
    _ serviceType: Service.Type, to concreteType: Concrete.Type, name: String?, arguments: repeat each Argument,
    in resolver: any Resolver, at site: CallSite
) -> Concrete? {
    guard let instance = checkResolves(serviceType, name: name, arguments: repeat each arguments, in: resolver, at: site)
    else { return nil }
    return checkConcreteType(
        instance, of: ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self), is: concreteType,
        in: resolver, at: site)
}

/// `instance`, resolved for `key`, as `concreteType`; `nil` after recording why it is not one.
package func checkConcreteType<Service, Concrete>(
    _ instance: Service, of key: ServiceKey, is concreteType: Concrete.Type, in resolver: any Resolver, at site: CallSite
) -> Concrete? {
    if let concrete = instance as? Concrete { return concrete }
    let serviceType = key.serviceType
    let name = key.name
    let expected = typeName(concreteType)
    var lines = ["\(key) resolved to \(typeName(type(of: instance as Any))), not \(expected)"]
    if let registration = RegistrationLookup.describe(key, in: resolver) {
        lines.append("  resolved from: \(registration)")
    }
    let typeName = typeName(serviceType)
    let nameArgument = name.map { ", name: \(BoundedText.literal($0))" } ?? ""
    lines.append(
        "  fix: override it before it is first resolved, e.g. "
            + "`test.override(\(typeName).self\(nameArgument)) { _ in \(expected)(…) }`, "
            + "or expect the type it has")
    recordFailure(lines.joined(separator: "\n"), at: site)
    return nil
}

/// Resolves a service with `await`, for async and main-actor registrations, and fails the
/// running test, at this line, with the full error when it cannot be resolved.
///
/// ```swift
/// let database = await assertResolvesAsync(Database.self, in: test)      // a registerAsync factory
/// let viewModel = await assertResolvesAsync(CourseViewModel.self, arguments: "c-1", in: test)
/// ```
/// - Parameters:
///   - serviceType: The type to resolve.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments the registration takes, if any.
///   - resolver: A `TestContainer`, a `Container`, or any other resolver.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
/// - Returns: The instance, or `nil` after recording the failure.
@discardableResult
nonisolated(nonsending)
public func assertResolvesAsync<Service, each Argument>(
    _ serviceType: Service.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> Service? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return await checkResolvesAsync(serviceType, name: name, arguments: repeat each arguments, in: resolver, at: site)
}

/// Resolves a service with `await` and checks that it is an instance of a given concrete type,
/// failing the running test at this line otherwise.
///
/// ```swift
/// test.overrideAsync(Database.self) { _ in try await InMemoryDatabase.open() }
/// let database = await assertResolvesAsync(Database.self, to: InMemoryDatabase.self, in: test)
/// ```
/// - Parameters:
///   - serviceType: The type to resolve.
///   - concreteType: The type the instance must have.
///   - name: The registration's name, if any.
///   - arguments: The runtime arguments the registration takes, if any.
///   - resolver: A `TestContainer`, a `Container`, or any other resolver.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
/// - Returns: The instance as `concreteType`, or `nil` after recording the failure.
@discardableResult
nonisolated(nonsending)
public func assertResolvesAsync<Service, Concrete, each Argument>(
    _ serviceType: Service.Type,
    to concreteType: Concrete.Type,
    name: String? = nil,
    arguments: repeat each Argument,
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> Concrete? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let instance = await checkResolvesAsync(serviceType, name: name, arguments: repeat each arguments, in: resolver, at: site)
    else { return nil }
    return checkConcreteType(
        instance, of: ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self), is: concreteType,
        in: resolver, at: site)
}

nonisolated(nonsending)
package func checkResolvesAsync<Service, each Argument>(
    _ serviceType: Service.Type, name: String?, arguments: repeat each Argument, in resolver: any Resolver,
    at site: CallSite
) async -> Service? {
    do {
        return try await resolver.async.resolve(serviceType, name: name, arguments: repeat each arguments)
    } catch {
        let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
        recordFailure("\(key) could not be resolved:\n\(indented("\(error)"))", at: site)
        return nil
    }
}
