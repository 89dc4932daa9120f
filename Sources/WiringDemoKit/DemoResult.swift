/// What one run of the demo prints, and how it exits; `main.swift` only writes it out, so tests
/// can check every byte of it.
public struct DemoResult: Sendable, Equatable {
    /// The text for standard output, without a trailing newline; empty when there is none.
    public let standardOutput: String
    /// The text for standard error, without a trailing newline; empty when there is none.
    public let standardError: String
    /// The process's exit status: 0 on success, 64 (`EX_USAGE`) for a command line it does not understand.
    public let exitCode: Int32

    /// A result with exactly this output and status.
    public init(standardOutput: String = "", standardError: String = "", exitCode: Int32 = 0) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitCode = exitCode
    }
}
