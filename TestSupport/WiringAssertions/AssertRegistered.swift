import Wiring
import WiringTestSupport

/// Fails the running test at this line, listing each of the keys that nothing can resolve, with
/// the registrations of the same type that do exist.
///
/// ```swift
/// assertRegistered([ServiceKey(Network.self), ServiceKey(Database.self, name: "primary")], in: test)
/// ```
///
/// A key counts as registered when a registration, an override, a fake or an `Injectable`
/// conformance provides it. Nothing is resolved.
/// - Parameters:
///   - keys: The keys that must be resolvable.
///   - resolver: A `TestContainer` or a `Container`, which is not modified.
///   - fileID: The file to report a failure in, as `#fileID` spells it; leave the default.
///   - filePath: The file to report a failure in, as `#filePath` spells it; an XCTest helper passes its own `file` on.
///   - line: The line to report a failure at; a helper passes its own `line` on.
///   - column: The column to report a failure at; leave the default.
public func assertRegistered(
    _ keys: [ServiceKey],
    in resolver: any Resolver,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkRegistered(keys, in: resolver, at: site)
}

package func checkRegistered(_ keys: [ServiceKey], in resolver: any Resolver, at site: CallSite) {
    let test: TestContainer
    switch resolver {
    case let resolver as TestContainer: test = resolver
    case let container as Container: test = TestContainer(base: container)
    default:
        recordFailure(
            "cannot check registrations in a \(typeName(type(of: resolver))): "
                + "assertRegistered needs a Container or a TestContainer", at: site)
        return
    }
    let missing = test.missingRegistrations(expected: keys)
    guard !missing.isEmpty else { return }
    let count = missing.count == 1 ? "1 key is" : "\(missing.count) keys are"
    var lines = ["\(count) not registered:"]
    for key in missing {
        lines.append("  \(key)")
        let nearMisses = RegistrationLookup.nearMisses(of: key, in: test)
        if !nearMisses.isEmpty {
            let listed = BoundedText.listedLines(nearMisses)
            lines.append("    registered for \(key.typeDescription): " + listed.joined(separator: ", "))
        }
    }
    let example = missing[0]
    let name = example.name.map { ", name: \(BoundedText.literal($0))" } ?? ""
    lines.append("  fix: register each, e.g. `container.register(\(example.typeDescription).self\(name)) { r in … }`")
    recordFailure(lines.joined(separator: "\n"), at: site)
}
