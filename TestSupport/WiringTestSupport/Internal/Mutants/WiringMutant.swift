import Foundation
import Wiring

/// A change a test container makes to one registration of its base, so that an unchanged test
/// suite runs against a mutant of the app's wiring: `WIRING_MUTANT=<key>:<kind>`, the key as
/// `ServiceKey` prints it (`Database (name: "primary")`), set by `wiring-mutants` for each run.
///
/// A plain `Container` never mutates; a test container applies the mutant only where no layer of
/// it overrides the key (an override is the test's own choice).
package struct WiringMutant: Sendable, Equatable, CustomStringConvertible {
    /// What happens to the registration.
    package enum Kind: String, Sendable, CaseIterable {
        /// A kept registration (`.container`, `.weak`, `.graph`, a custom scope, per-argument
        /// instances) makes a new instance on every resolve.
        case unshare
        /// The registration is gone, as if its module forgot it.
        case unregister
        /// The registration answers with the test container's fake, or the `Injectable` type's
        /// own default, where one exists.
        case fake
    }

    /// The environment variable that names the mutant of a test process.
    package static let variable = "WIRING_MUTANT"

    /// The key of the registration, as `ServiceKey.description` prints it.
    package let key: String
    /// What happens to it.
    package let kind: Kind

    /// A mutant of the registration printed as `key`.
    package init(key: String, kind: Kind) {
        self.key = key
        self.kind = kind
    }

    /// `<key>:<kind>`, what `WIRING_MUTANT` holds.
    package var description: String { "\(key):\(kind.rawValue)" }

    /// Why a value of `WIRING_MUTANT` names no mutant, and how to write one that does.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The value read.
        package let value: String
        /// What is wrong with it.
        package let problem: String

        package var description: String {
            "\(WiringMutant.variable)=\(BoundedText.literal(value)) is not a mutant: \(problem). Write "
                + "\(WiringMutant.variable)='<key>:<kind>', the key as ServiceKey prints it and the kind one of "
                + Kind.allCases.map(\.rawValue).joined(separator: ", ")
                + " (e.g. \(WiringMutant.variable)='Database (name: \"primary\"):unshare'), or unset it"
        }
    }

    /// The mutant `value` names: the key before the last `:`, the kind after it (a key may hold
    /// colons itself: `Greeting (name: "en")`).
    package static func parse(_ value: String) throws(ParseError) -> WiringMutant {
        guard let colon = value.lastIndex(of: ":") else {
            throw ParseError(value: value, problem: "no ':' separates the key from the kind")
        }
        let key = value[..<colon].trimmingCharacters(in: .whitespaces)
        let kindText = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { throw ParseError(value: value, problem: "the key before ':' is empty") }
        guard let kind = Kind(rawValue: kindText) else {
            throw ParseError(value: value, problem: "\(BoundedText.literal(kindText)) is no kind of mutant")
        }
        return WiringMutant(key: key, kind: kind)
    }

    /// The mutant a test container made in this task applies, for the suite's own tests of
    /// mutants: it wins over `WIRING_MUTANT`, without changing the process's environment.
    @TaskLocal package static var inTask: WiringMutant?

    /// The mutant test containers made now apply: the task's, else the process's.
    package static var active: WiringMutant? { inTask ?? ofProcess }

    /// The mutant `WIRING_MUTANT` names, read once. A value that names none ends the process
    /// with a message saying how to fix it: a mistyped mutant ignored would report every
    /// registration as survived.
    private static let ofProcess: WiringMutant? = {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        do {
            return try parse(value)
        } catch {
            RunEnd.printToStandardError("error: \(error)")
            exit(64)
        }
    }()

    /// What a test process prints when a whole-graph check ran under a mutant, so that
    /// `wiring-mutants` can tell a mutant only verification caught from one a test's own
    /// assertions caught: `wiring-mutants: verification ran under WIRING_MUTANT=…`.
    package static let verificationMarker = "wiring-mutants: verification ran under \(variable)="

    /// Notes, on standard error, that `check` (`verifyWiring`, `wiringManifest`) of a test
    /// container made under `mutant` ran, in the test running now, and what it found.
    static func noteVerification(_ check: String, under mutant: WiringMutant?, problems: Int? = nil) {
        guard let mutant else { return }
        let test = RunningTests.current?.name ?? "(no test known)"
        // The marker goes to standard error, which `wiring-mutants` reads after the process ends.
        let found = problems.map { ", \($0) problem\($0 == 1 ? "" : "s")" } ?? ""
        RunEnd.printToStandardError("\(verificationMarker)\(mutant) in test \(test): \(check)\(found)")
    }
}
