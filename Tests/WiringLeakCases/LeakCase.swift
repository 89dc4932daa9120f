import Wiring

/// One path through the engine that must release everything it made: a function that builds its
/// own containers, walks the path, checks the outcome (the value, or the `ResolutionError`
/// identifier due) and drops everything before it returns.
///
/// Run by a test in the suite (for the outcomes) and by the `wiring-leaks` executable, which CI
/// runs under Address Sanitizer with leak detection on, one process per case, so that a leak
/// names its case. The suite itself runs without leak detection: LeakSanitizer cannot see a
/// Swift object's weak-reference side table (its pointer is packed into the reference count),
/// so every object ever weakly referenced and still alive at exit would show as a leak. A case
/// leaves nothing alive, so what LeakSanitizer reports after one is a real leak.
public struct LeakCase: Sendable {
    /// The case's name, as `wiring-leaks NAME` and the suite's test take it.
    public let name: String
    /// The path the case walks, in a line.
    public let summary: String
    let body: @Sendable () async throws -> Void

    init(_ name: String, _ summary: String, _ body: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.summary = summary
        self.body = body
    }

    /// Walks the path once.
    /// - Throws: ``LeakCaseFailure`` when the outcome is not the one due.
    public func run() async throws {
        try await body()
    }

    /// Every case, in the order `wiring-leaks` runs them.
    public static let all: [LeakCase] = successCases + errorCases + concurrencyCases + keptCases

    /// The case with this name, if any.
    public static func named(_ name: String) -> LeakCase? {
        all.first { $0.name == name }
    }
}

/// A case whose outcome was not the one due.
public struct LeakCaseFailure: Error, CustomStringConvertible {
    /// What was due and what happened instead.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Fails the case with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw LeakCaseFailure(message()) }
}

/// Runs `body`, which must throw a `ResolutionError` with this identifier, and returns it.
@discardableResult
func expectError<Result>(
    _ identifier: String, _ what: String, _ body: () throws -> Result
) throws -> ResolutionError {
    do {
        _ = try body()
    } catch let error as ResolutionError {
        try check(error.identifier == identifier, "\(what): threw \(error.identifier), due \(identifier): \(error)")
        return error
    } catch {
        throw LeakCaseFailure("\(what): threw a \(type(of: error)), due a ResolutionError \(identifier): \(error)")
    }
    throw LeakCaseFailure("\(what): threw nothing, due \(identifier)")
}

/// ``expectError(_:_:_:)`` for an async `body`.
@discardableResult
func expectError<Result>(
    _ identifier: String, _ what: String, _ body: () async throws -> Result
) async throws -> ResolutionError {
    do {
        _ = try await body()
    } catch let error as ResolutionError {
        try check(error.identifier == identifier, "\(what): threw \(error.identifier), due \(identifier): \(error)")
        return error
    } catch {
        throw LeakCaseFailure("\(what): threw a \(type(of: error)), due a ResolutionError \(identifier): \(error)")
    }
    throw LeakCaseFailure("\(what): threw nothing, due \(identifier)")
}
