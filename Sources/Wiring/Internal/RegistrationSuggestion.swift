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
            let sameName = sameType.filter { BoundedText.sameName($0.name, key.name) }
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
        return "did you mean \(BoundedText.literal(name))?"
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
        let sameName = keys.allSatisfy { BoundedText.sameName($0.name, key.name) }
        let subject = sameName ? key.withoutArguments.description : key.typeDescription
        // Each argument list once, in registration order: `(String)`, or `no runtime arguments`.
        // A set remembers which are shown, as a type can have many registrations.
        var lists: [String] = []
        var shown: Set<String> = []
        for registered in keys {
            let list = registered.takesArguments ? Self.describeArguments(of: registered) : "no runtime arguments"
            if shown.insert(list).inserted { lists.append(list) }
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
        maximumDistance(forLength: name.count)
    }

    private static func maximumDistance(forLength length: Int) -> Int {
        min(2, max(1, length / 3))
    }

    /// The most characters of each name that ``editDistance(_:_:atMost:)`` weighs edit by edit,
    /// once the start and end both names share are set aside.
    ///
    /// Why a cap as well as the band: the band keeps the table linear in the length of the
    /// names, the cap keeps it small whatever their length, so a long name costs no more than
    /// a scan past what it shares with the one asked for. Names this long are generated
    /// (paths, identifiers, encoded data) rather than typed; a slip in one still changes a few
    /// neighbouring characters, which stay within the cap and are still suggested, and only
    /// edits further apart than this go unsuggested. Comparing only a prefix instead would
    /// suggest names that differ after it, which are not one typo away.
    package static let comparedCharacters = 128

    /// The name among `names` closest to `asked`, if one is close enough; ties go to the first in
    /// alphabetical order. A name that shares no character position with `asked` (as far apart
    /// as its length) is never close.
    ///
    /// Linear in the characters of `asked` and `names`: a name whose length alone puts it too
    /// far away is set aside after counting it, and ``editDistance(_:_:atMost:)`` is linear.
    /// Names of more than `BoundedText.maximumNameBytes` bytes are told apart by their bytes,
    /// character by character too, as ``BoundedText/sameName(_:_:)`` does: one character of
    /// 100,000 accents would otherwise be normalized again for every name it is compared with.
    package static func closestName(to asked: String, among names: [String]) -> String? {
        let askedCharacters = Array(asked)
        let limit = maximumDistance(forLength: askedCharacters.count)
        var best: (name: String, distance: Int)?
        for name in Set(names) where !BoundedText.sameName(name, asked) {
            let length = name.count
            guard abs(length - askedCharacters.count) <= limit,
                let distance = editDistance(
                    askedCharacters[...], Array(name)[...], atMost: limit,
                    byBytes: BoundedText.comparesBytes(asked, name)),
                distance < max(askedCharacters.count, length)
            else { continue }
            if let current = best, (current.distance, current.name) <= (distance, name) { continue }
            best = (name, distance)
        }
        return best?.name
    }

    /// The optimal string alignment distance between two strings, by characters (the fewest
    /// insertions, deletions, substitutions and swaps of two neighbouring characters that turn
    /// one into the other, no character being edited twice) when it is at most `limit`; `nil`
    /// when it is more, or when what differs spans more than ``comparedCharacters`` characters.
    ///
    /// Takes time linear in the length of the strings times `limit`, so that no name, however
    /// long, holds up the error that suggests it. The characters of strings that
    /// ``BoundedText/sameName(_:_:)`` compares by bytes are compared by bytes too, for the same
    /// reason.
    /// - Parameters:
    ///   - lhs: One string.
    ///   - rhs: The other.
    ///   - limit: The largest distance worth knowing; a suggestion allows at most two.
    package static func editDistance(_ lhs: String, _ rhs: String, atMost limit: Int) -> Int? {
        // Counting first spares the arrays of strings too different in length to be close.
        guard abs(lhs.count - rhs.count) <= limit else { return nil }
        return editDistance(
            Array(lhs)[...], Array(rhs)[...], atMost: limit, byBytes: BoundedText.comparesBytes(lhs, rhs))
    }

    private static func editDistance(
        _ lhs: ArraySlice<Character>, _ rhs: ArraySlice<Character>, atMost limit: Int, byBytes: Bool
    ) -> Int? {
        guard limit >= 0, abs(lhs.count - rhs.count) <= limit else { return nil }
        let same: (Character, Character) -> Bool =
            byBytes ? { BoundedText.sameBytes($0.utf8, $1.utf8) } : { $0 == $1 }
        // Some optimal alignment leaves alone what both strings start and end with, swaps
        // included, so only the middle between them goes in the table: what the cap bounds.
        var a = lhs
        var b = rhs
        let start = zip(a, b).prefix(while: same).count
        a = a.dropFirst(start)
        b = b.dropFirst(start)
        let end = zip(a.reversed(), b.reversed()).prefix(while: same).count
        a = a.dropLast(end)
        b = b.dropLast(end)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        guard max(a.count, b.count) <= comparedCharacters else { return nil }
        let x = Array(a)
        let y = Array(b)
        // A cell more than `limit` from the diagonal holds a distance over `limit`, so each row
        // is worked out only within `limit` of it; `beyond` stands for any distance over `limit`,
        // which is all the cells just outside that band need to say.
        let beyond = limit + 1
        // Three rows of the distance table: the one before last, the last and the current one.
        var beforeLast = [Int](repeating: beyond, count: y.count + 1)
        var last = (0...y.count).map { min($0, beyond) }
        var current = [Int](repeating: beyond, count: y.count + 1)
        // The lengths differ by at most `limit`, so every row has cells within the band.
        for i in 1...x.count {
            let low = max(1, i - limit)
            let high = min(y.count, i + limit)
            current[low - 1] = low == 1 ? min(i, beyond) : beyond
            var rowMinimum = current[low - 1]
            for j in low...high {
                let substitution = same(x[i - 1], y[j - 1]) ? 0 : 1
                var distance = min(last[j] + 1, current[j - 1] + 1, last[j - 1] + substitution)
                if i > 1, j > 1, same(x[i - 1], y[j - 2]), same(x[i - 2], y[j - 1]) {
                    distance = min(distance, beforeLast[j - 2] + 1)
                }
                current[j] = min(distance, beyond)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < y.count { current[high + 1] = beyond }
            // No row has a smaller distance than the one before it, so once all of one are
            // beyond the limit, the last is too.
            guard rowMinimum <= limit else { return nil }
            (beforeLast, last, current) = (last, current, beforeLast)
        }
        let distance = last[y.count]
        return distance <= limit ? distance : nil
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
        if let name { parts.append("name: \(BoundedText.literal(name))") }
        let arguments = argumentTypes
        if !arguments.isEmpty {
            parts.append("arguments: " + arguments.map { "<\(typeName($0))>" }.joined(separator: ", "))
        }
        return "\(function)(\(parts.joined(separator: ", ")))"
    }
}
