import Testing

/// Where an assertion was called: what a failure is reported at.
///
/// Kept as `#fileID`, `#filePath`, `#line` and `#column` so that either framework gets the
/// location in the form it wants: Swift Testing a `SourceLocation`, XCTest a `StaticString`
/// file and a line.
package struct CallSite: Sendable {
    package let fileID: String
    package let filePath: String
    /// The path as XCTest takes it; `nil` when the site came from a Swift Testing `SourceLocation`.
    package let staticFilePath: StaticString?
    package let line: UInt
    package let column: UInt
    /// The function the assertion was called from, as `#function` spells it: `checkout()`.
    package let function: String
    /// The test name the caller gave a snapshot, if it gave one.
    package let testName: String?

    package init(
        fileID: StaticString, filePath: StaticString, line: UInt, column: UInt, function: String = "", testName: String? = nil
    ) {
        // Every assertion starts here: the test support learns from now on which test runs.
        TestIdentification.install()
        self.fileID = "\(fileID)"
        self.filePath = "\(filePath)"
        self.staticFilePath = filePath
        self.line = line
        self.column = column
        self.function = function
        self.testName = testName
    }

    package init(_ location: SourceLocation, function: String = "", testName: String? = nil) {
        TestIdentification.install()
        self.fileID = location.fileID
        self.filePath = location.filePath
        self.staticFilePath = nil
        self.line = UInt(location.line)
        self.column = UInt(location.column)
        self.function = function
        self.testName = testName
    }

    package var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: filePath, line: Int(line), column: Int(column))
    }
}
