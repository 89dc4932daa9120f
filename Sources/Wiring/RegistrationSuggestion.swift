/// What a request for a key nothing registers most likely meant, worked out from the keys
/// registered for its type: a name one typo away, or the runtime arguments the type really takes.
///
/// The one place these suggestions are made: `ResolutionError.fix` words them for a resolve,
/// and the wiring report (its missing dependencies, which use that fix, and its unused samples)
/// for what it checked.
package enum RegistrationSuggestion: Equatable, Sendable {
    /// A registered name close to the one asked for, among the registrations of the type that
    /// take the same runtime arguments.
    case name(String)
    /// No registration of the type takes the runtime arguments asked for; these keys are what it
    /// is registered with (those with the name asked for when there are any, else all), in
    /// registration order, the first one being the one to show a call for.
    case arguments([ServiceKey])

    /// The suggestion for `key`, or `nil` when there is none to make.
    ///
    /// A name is suggested when another registration with the same argument types has a name at
    /// most ``maximumDistance(for:)`` edits (insertions, deletions, substitutions or swaps of two
    /// neighbouring characters) away from the one asked for: the closest, and of those the first
    /// in alphabetical order. Argument types are suggested when no registration of the type takes
    /// the ones asked for.
    /// - Parameters:
    ///   - key: The key asked for, which nothing registers.
    ///   - registered: The keys registered for its type, in registration order.
    package init?(for key: ServiceKey, registered: [ServiceKey]) {
        let sameType = registered.filter { $0.typeIdentifier == key.typeIdentifier && $0 != key }
        guard !sameType.isEmpty else { return nil }
        let sameArguments = sameType.filter { $0.argumentList == key.argumentList }
        if sameArguments.isEmpty {
            let sameName = sameType.filter { $0.name == key.name }
            self = .arguments(sameName.isEmpty ? sameType : sameName)
            return
        }
        guard let asked = key.name,
            let closest = Self.closestName(to: asked, among: sameArguments.compactMap(\.name))
        else { return nil }
        self = .name(closest)
    }

    /// `did you mean "console"?`, for a name; `nil` for argument types.
    package var didYouMean: String? {
        guard case .name(let name) = self else { return nil }
        return "did you mean \(name.swiftLiteral)?"
    }

    /// For argument types, what the type is registered with and what `asker` passes:
    /// `Greeter is registered to take the runtime arguments (String) or (String, Bool), and this resolve passes (Int)`.
    /// `nil` for a name.
    /// - Parameters:
    ///   - key: The key asked for.
    ///   - asker: What asked for it, as in "this resolve".
    package func argumentsMismatch(for key: ServiceKey, asker: String) -> String? {
        guard case .arguments(let keys) = self else { return nil }
        // The name asked for belongs in the subject only when every key shown has it.
        let sameName = keys.allSatisfy { $0.name == key.name }
        let subject = sameName ? key.withoutArguments.description : key.typeDescription
        // Each argument list once, in registration order: `(String)`, or `no runtime arguments`.
        var lists: [String] = []
        for registered in keys {
            let list = registered.takesArguments ? Self.describeArguments(of: registered) : "no runtime arguments"
            if !lists.contains(list) { lists.append(list) }
        }
        if let first = lists.firstIndex(where: { $0.hasPrefix("(") }) {
            lists[first] = "the runtime arguments " + lists[first]
        }
        let registeredText = lists.joined(separator: " or ")
        return "\(subject) is registered to take \(registeredText), and \(asker) passes \(Self.describeArguments(of: key))"
    }

    /// For argument types, the registered key to show a call for; `nil` for a name.
    package var example: ServiceKey? {
        guard case .arguments(let keys) = self else { return nil }
        return keys.first
    }

    /// The argument types of a key as a list, `(String, Bool)`, or `none`.
    private static func describeArguments(of key: ServiceKey) -> String {
        let types = key.argumentTypes
        return types.isEmpty ? "none" : "(" + types.map(typeName).joined(separator: ", ") + ")"
    }

    // MARK: Edit distance

    /// How many edits a registered name may be from the one asked for and still be suggested:
    /// one for names of up to five characters, two for longer ones.
    package static func maximumDistance(for name: String) -> Int {
        min(2, max(1, name.count / 3))
    }

    /// The name among `names` closest to `asked`, if one is close enough; ties go to the first in
    /// alphabetical order. A name that shares no character position with `asked` (as far apart
    /// as its length) is never close.
    package static func closestName(to asked: String, among names: [String]) -> String? {
        let limit = maximumDistance(for: asked)
        var best: (name: String, distance: Int)?
        for name in Set(names) where name != asked {
            let distance = editDistance(asked, name)
            guard distance <= limit, distance < max(asked.count, name.count) else { continue }
            if let current = best, (current.distance, current.name) <= (distance, name) { continue }
            best = (name, distance)
        }
        return best?.name
    }

    /// The optimal string alignment distance between two strings, by characters: the fewest
    /// insertions, deletions, substitutions and swaps of two neighbouring characters that turn
    /// one into the other, no character being edited twice.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the distance table: the one before last, the last and the current one.
        var beforeLast = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(last[j] + 1, current[j - 1] + 1, last[j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, beforeLast[j - 2] + 1)
                }
                current[j] = distance
            }
            (beforeLast, last, current) = (last, current, beforeLast)
        }
        return last[b.count]
    }
}

extension ServiceKey {
    /// The same type and name, without runtime arguments.
    fileprivate var withoutArguments: ServiceKey {
        ServiceKey(serviceType: serviceType, name: name, argumentList: NoArguments.self)
    }

    /// A call for this key, with a placeholder for each runtime argument, as fixes show it:
    /// `container.resolve(Greeter.self, name: "formal", arguments: <String>, <Bool>)` for
    /// `call("container.resolve")`.
    /// - Parameter function: What is called, such as `container.resolve` or `samples.add`.
    package func call(_ function: String) -> String {
        var parts = ["\(typeDescription).self"]
        if let name { parts.append("name: \(name.swiftLiteral)") }
        let arguments = argumentTypes
        if !arguments.isEmpty {
            parts.append("arguments: " + arguments.map { "<\(typeName($0))>" }.joined(separator: ", "))
        }
        return "\(function)(\(parts.joined(separator: ", ")))"
    }
}
