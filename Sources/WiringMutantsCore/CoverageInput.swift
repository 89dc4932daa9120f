import Foundation

/// The registrations of a wiring coverage report (`WIRING_COVERAGE`), as far as
/// `wiring-mutants` reads it: which tests resolved or verified each, and which mutations apply.
package struct CoverageInput: Sendable {
    /// One registration of the app.
    package struct Registration: Decodable, Equatable, Sendable {
        package let key: String
        package let scope: String
        package let file: String
        package let line: Int
        /// How many tests resolved it; more than ``resolvedBy`` names when the report cut the list.
        package let tests: Int
        package let resolvedBy: [String]?
        package let verifiedBy: [String]?
        package let fake: Bool?

        package init(
            key: String, scope: String, file: String, line: Int, tests: Int, resolvedBy: [String]? = nil,
            verifiedBy: [String]? = nil, fake: Bool? = nil
        ) {
            (self.key, self.scope, self.file, self.line, self.tests) = (key, scope, file, line, tests)
            (self.resolvedBy, self.verifiedBy, self.fake) = (resolvedBy, verifiedBy, fake)
        }

        /// The mutations that change it: `unshare` where some scope keeps instances, `fake`
        /// where a fake or an `Injectable` default exists, `unregister` always.
        package var mutations: [Mutation] {
            Mutation.allCases.filter { mutation in
                switch mutation {
                case .unshare: scope.split(separator: ", ").contains { $0 != ".transient" }
                case .unregister: true
                case .fake: fake == true
                }
            }
        }

        /// `Mailer [.container] at App/Setup.swift:12`.
        package var title: String { "\(key) [\(scope)] at \(file):\(line)" }
    }

    package let registrations: [Registration]

    /// Why a coverage report could not be read.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The registrations of the report `data` holds, read from `path`.
    package init(data: Data, path: String) throws {
        struct Stored: Decodable {
            let format: String
            let version: Int
            let registrations: [Registration]
        }
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: data)
        } catch {
            throw Failure(description: "\(path) is no wiring coverage report (\(error)): is WiringTestSupport up to date?")
        }
        guard stored.format == "wiring-coverage", stored.version == 1 else {
            throw Failure(description: "\(path) is a \(stored.format) report of version \(stored.version); wiring-mutants reads wiring-coverage version 1")
        }
        registrations = stored.registrations
    }

    package init(registrations: [Registration]) {
        self.registrations = registrations
    }
}

/// What a mutant does to its registration: the values of `WIRING_MUTANT`'s kind.
package enum Mutation: String, Codable, CaseIterable, Sendable, Comparable {
    case unshare, unregister, fake

    package static func < (first: Mutation, second: Mutation) -> Bool {
        first.rank < second.rank
    }

    /// The order reports list mutations in: from the subtlest change to the bluntest.
    private var rank: Int {
        switch self {
        case .unshare: 0
        case .unregister: 1
        case .fake: 2
        }
    }
}
