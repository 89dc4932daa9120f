import Foundation

/// The survivors a team accepts: one `<key>:<mutation>` a line, as a report names mutants;
/// blank lines and `#` comments are skipped. An accepted survivor is reported, not counted.
package struct Baseline: Equatable, Sendable {
    package let accepted: Set<String>

    package init(accepted: Set<String> = []) {
        self.accepted = accepted
    }

    /// The baseline `text` lists, read from `path`.
    package init(text: String, path: String) throws(MutantsOptions.UsageError) {
        var accepted: Set<String> = []
        // Any line end, `\r\n` too: Swift reads `\r\n` as one `Character`, which is not `"\n"`,
        // and a baseline saved on Windows would be one line.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let entry = line.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty || entry.hasPrefix("#") { continue }
            guard let colon = entry.lastIndex(of: ":"), Mutation(rawValue: String(entry[entry.index(after: colon)...])) != nil,
                colon != entry.startIndex
            else {
                throw MutantsOptions.UsageError(
                    description: "\(path):\(number + 1): \(entry.debugDescription) names no mutant; write <key>:<mutation>, "
                        + "the mutation one of \(Mutation.allCases.map(\.rawValue).joined(separator: ", ")), as the report names it")
            }
            accepted.insert(entry)
        }
        self.accepted = accepted
    }
}
