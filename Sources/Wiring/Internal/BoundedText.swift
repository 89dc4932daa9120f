/// How every diagnostic (an error, a suggestion, a report) shows what it was given, so that its
/// length stays bounded whatever the input: a long name is shortened to its ends and its length,
/// a list of candidates to its first few and a count of the rest, a path to its ends.
///
/// Why one place: a key is rendered in a summary, a path, a fix and beside every candidate, so a
/// hostile name multiplied by a long list made a description of 100 million characters. Each
/// piece shown is bounded here, once, and a message that shows a bounded number of pieces is
/// bounded too, in time as in length: nothing is read past the ends that are shown but to count.
///
/// The limits are far above what a name or list written by hand reaches, so that those read
/// exactly as they always did.
package enum BoundedText {
    /// Names of up to this many characters are shown whole. Longer ones are generated (paths,
    /// identifiers, encoded data), where the start tells them apart and the rest is noise.
    package static let maximumNameLength = 300
    /// How many characters of the start of a longer name are shown: room for a long generated
    /// name to be recognised, as the start is where such names differ.
    package static let shownHead = 240
    /// How many characters of the end of a longer name are shown.
    package static let shownTail = 40
    /// Lists of candidates (the registrations a missing key could have meant) of up to this many
    /// are shown whole; longer ones show this many and count the rest.
    package static let maximumListed = 10
    /// Paths and cycles of up to this many keys are shown whole; longer ones show
    /// ``chainEnds`` keys at each end and count those between.
    package static let maximumChainLength = 8
    /// How many keys at each end of a longer path or cycle are shown.
    package static let chainEnds = 3

    /// Names of more UTF-8 bytes than this are shortened too, however few their characters: one
    /// character may join any number of Unicode scalars (a letter and 100,000 accents). Far above
    /// what ``maximumNameLength`` characters of any script or flag take.
    package static let maximumNameBytes = 4_096

    /// Whether two names are the same, as keys (`ServiceKey.==`) and diagnostics compare them:
    /// by canonical equivalence when both have at most ``maximumNameBytes`` bytes of UTF-8; by
    /// their bytes when either has more.
    ///
    /// Why not `==` throughout: it normalizes what it compares, and one character may join any
    /// number of accents, so telling such a name from each of a thousand registered ones
    /// normalized all of its accents a thousand times over. By bytes, names of different lengths
    /// differ at once, and others cost no more than the bytes they share. What is given up is
    /// only telling that two spellings of one text this long are the same: such names are
    /// generated, not typed.
    package static func sameName(_ lhs: String?, _ rhs: String?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        return comparesBytes(lhs, rhs) ? sameBytes(lhs.utf8, rhs.utf8) : lhs == rhs
    }

    /// Whether ``sameName(_:_:)`` compares `lhs` and `rhs` by their bytes, as the characters of
    /// names that long are compared too (by ``sameBytes(_:_:)``).
    package static func comparesBytes(_ lhs: String, _ rhs: String) -> Bool {
        comparesBytes(lhs) || comparesBytes(rhs)
    }

    /// Whether `name` is compared by its bytes: it has more than ``maximumNameBytes``.
    package static func comparesBytes(_ name: String) -> Bool {
        name.utf8.count > maximumNameBytes
    }

    /// Whether two texts have the same bytes: counted first, which costs nothing, then compared up
    /// to the first that differs.
    package static func sameBytes(_ lhs: String.UTF8View, _ rhs: String.UTF8View) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// `name` as a Swift string literal, `"mimi"`, when it has at most ``maximumNameLength``
    /// characters; a longer one is shown by its ends and its length:
    /// `"xxxx…xxxx" (100000 characters)`, or for one of few characters but many bytes,
    /// `"é́́…́́" (200001 bytes)`.
    ///
    /// Costs no more than counting the characters of `name`, and nothing for a short one.
    package static func literal(_ name: String) -> String {
        guard let (head, tail, length) = shortened(name) else { return name.swiftLiteral }
        return "\"\(head.swiftLiteralContents)…\(tail.swiftLiteralContents)\" (\(length))"
    }

    /// The start and end of `text` to show, and its length, when it has more than
    /// ``maximumNameLength`` characters or ``maximumNameBytes`` bytes; `nil` when it is shown
    /// whole. The ends are cut by scalars where characters that long would make them long.
    private static func shortened(_ text: String) -> (head: Substring, tail: Substring, length: String)? {
        // No more UTF-8 bytes than the limit means no more characters: no need to count them.
        let bytes = text.utf8.count
        guard bytes > maximumNameLength else { return nil }
        let count = text.count
        guard count > maximumNameLength || bytes > maximumNameBytes else { return nil }
        let length = count > maximumNameLength ? "\(count) characters" : "\(bytes) bytes"
        let scalars = text.unicodeScalars
        var head = text.prefix(shownHead)
        if head.utf8.count > maximumNameBytes / 2 { head = Substring(scalars.prefix(shownHead)) }
        var tail = text.suffix(shownTail)
        if tail.utf8.count > maximumNameBytes / 2 { tail = Substring(scalars.suffix(shownTail)) }
        return (head, tail, length)
    }

    /// The items of a list of candidates to show, at most ``maximumListed``, and when there are
    /// more, the line that counts the rest: `… and 990 more`.
    package static func listed<Items: Collection>(_ items: Items) -> (shown: Items.SubSequence, more: String?) {
        let shown = items.prefix(maximumListed)
        let rest = items.count - shown.count
        return (shown, rest > 0 ? "… and \(rest) more" : nil)
    }

    /// The lines of a list of candidates as shown: the first ``maximumListed``, then the line
    /// that counts the rest, if any.
    package static func listedLines(_ lines: some Collection<String>) -> [String] {
        let (shown, more) = listed(lines)
        return Array(shown) + (more.map { [$0] } ?? [])
    }

    /// The keys of a path or cycle joined by arrows, `Owner -> Animal`; when there are more than
    /// ``maximumChainLength``, the first and last ``chainEnds`` and the count of those between:
    /// `A -> B -> C -> … 994 more … -> X -> Y -> Z`.
    package static func chain(_ keys: some Collection<ServiceKey>) -> String {
        guard keys.count > maximumChainLength else { return keys.map(\.description).joined(separator: " -> ") }
        let between = "… \(keys.count - 2 * chainEnds) more …"
        let shown = keys.prefix(chainEnds).map(\.description) + [between] + keys.suffix(chainEnds).map(\.description)
        return shown.joined(separator: " -> ")
    }
}
