/// Where a registration was made in source, shown next to it in errors and reports.
public struct RegistrationSite: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` spells it: `Module/File.swift`.
    public let fileID: String
    /// The line of the `register` call.
    public let line: Int

    /// - Parameters:
    ///   - fileID: The file, as `#fileID` spells it.
    ///   - line: The line of the registration.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    package init(_ fileID: StaticString, _ line: UInt) {
        self.init(fileID: "\(fileID)", line: Int(line))
    }

    /// `Module/File.swift:line`, as compilers print locations.
    public var description: String { "\(fileID):\(line)" }
}
