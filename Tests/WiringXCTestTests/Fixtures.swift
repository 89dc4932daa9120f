import Foundation
import WiringTestHelpers
import WiringXCTest
import XCTest

// MARK: Capturing failures

/// A test case that can catch the failures an assertion records, to check them: message, file
/// and line. Failures outside `captureFailures` fail the test as usual.
class FailureCapturingTestCase: XCTestCase {
    /// A failure an assertion recorded: its message and where it was reported.
    struct CapturedFailure {
        let message: String
        let filePath: String
        let line: Int
    }

    private var captured: [CapturedFailure]?

    /// Runs `body` and returns the failures it recorded instead of failing the test with them.
    func captureFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
        captured = []
        defer { captured = nil }
        try body()
        return captured ?? []
    }

    /// `captureFailures`, for an async body on the main actor.
    @MainActor
    func captureFailures(_ body: @MainActor () async throws -> Void) async rethrows -> [CapturedFailure] {
        captured = []
        defer { captured = nil }
        try await body()
        return captured ?? []
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard captured != nil else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        // XCTFail prefixes the message it was given.
        let message = description.hasPrefix("failed - ") ? String(description.dropFirst("failed - ".count)) : description
        captured?.append(CapturedFailure(message: message, filePath: filePath, line: lineNumber))
    }
}
