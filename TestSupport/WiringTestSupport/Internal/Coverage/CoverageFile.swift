import Foundation
import Wiring

/// Writes the wiring coverage report at the end of a test process: the text at the path
/// `WIRING_COVERAGE` names, the JSON beside it, and, next to them, which run wrote them.
///
/// One `swift test` runs several processes: XCTest's, then Swift Testing's, and with
/// `--parallel` several workers. Each adds up its coverage with what an earlier process of the
/// same run wrote, so the report covers the whole run. Processes of the same run share their
/// parent process (`swift test` itself); `WIRING_COVERAGE_RUN` names the run instead, where
/// they do not. A file lock keeps processes that end at once from writing over each other.
package enum CoverageFile {
    /// The environment variable that names the run, when the parent process cannot tell it.
    package static let runVariable = "WIRING_COVERAGE_RUN"

    /// Why the report could not be written.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the file.
        package let description: String
    }

    /// Where the JSON goes, beside the text at `path`: its extension replaced by `.json`
    /// (`wiring-coverage.txt` → `wiring-coverage.json`), or `.json` added to a path without one
    /// (or ending in `.json` already).
    package static func jsonPath(forReportAt path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name[name.index(after: dot)...] != "json" {
            return String(path.dropLast(name.distance(from: dot, to: name.endIndex))) + ".json"
        }
        return path + ".json"
    }

    /// Where the run that wrote the report is kept, and what processes lock while they write it.
    package static func runPath(forReportAt path: String) -> String {
        path + ".run"
    }

    /// Writes `coverage` at `path` and its JSON beside it, added up with the report an earlier
    /// process of the same run wrote there.
    package static func write(_ coverage: WiringCoverage, to path: String, run: String = runIdentity()) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lockPath = runPath(forReportAt: path)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(lockPath) (errno \(errno))") }
        let lock = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw Failure(description: "cannot lock \(lockPath) (errno \(errno))")
        }
        let previousRun = String(decoding: try lock.readToEnd() ?? Data(), as: UTF8.self)
        let jsonPath = jsonPath(forReportAt: path)
        var total = coverage
        if previousRun == run, let earlier = FileManager.default.contents(atPath: jsonPath) {
            do {
                total = try decode(earlier).adding(coverage)
            } catch {
                RunEnd.printToStandardError(
                    "warning: Wiring could not read the coverage an earlier process of this run wrote to \(jsonPath) "
                        + "(\(error)); it is written anew")
            }
        }
        try Data((total.render() + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        try Data((total.renderJSON() + "\n").utf8).write(to: URL(fileURLWithPath: jsonPath), options: .atomic)
        try lock.seek(toOffset: 0)
        try lock.truncate(atOffset: 0)
        try lock.write(contentsOf: Data(run.utf8))
        // Closing gives the lock up.
        try lock.close()
    }

    /// The run this process belongs to: `WIRING_COVERAGE_RUN` if set, else its parent process
    /// (with, on Linux, when that process started, as process ids are reused); a process whose
    /// parent is gone or is `init` is a run of its own.
    package static func runIdentity() -> String {
        if let run = ProcessInfo.processInfo.environment[runVariable], !run.isEmpty { return "run \(run)" }
        let parent = getppid()
        guard parent > 1 else { return "process \(getpid())" }
        var identity = "parent \(parent)"
        #if os(Linux)
        // Field 22 of /proc/<pid>/stat, counted after the command name, which may hold spaces.
        if let stat = try? String(contentsOfFile: "/proc/\(parent)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        {
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            if fields.count > 19 { identity += " started \(fields[19])" }
        }
        #endif
        return identity
    }

    /// The coverage `renderJSON()` wrote.
    package static func decode(_ data: Data) throws -> WiringCoverage {
        let stored = try JSONDecoder().decode(Stored.self, from: data)
        guard stored.format == "wiring-coverage", stored.version == 1 else {
            throw Failure(description: "not a wiring coverage report of version 1")
        }
        let registrations = stored.registrations.map { $0.entry(kind: .registration) }
        let doubles = try stored.doubles.map { item in
            guard let kind = item.kind.flatMap(WiringCoverage.Entry.Kind.init(rawValue:)) else {
                throw Failure(description: "a double of unknown kind \(item.kind ?? "(none)")")
            }
            return item.entry(kind: kind)
        }
        return WiringCoverage(entries: registrations + doubles, testCount: stored.totals.tests)
    }

    /// The JSON of a report, as far as adding reports up reads it.
    private struct Stored: Decodable {
        struct Totals: Decodable {
            let tests: Int
        }

        struct Item: Decodable {
            let kind: String?
            let key: String
            let scope: String
            let file: String
            let line: Int
            let tests: Int
            /// Written only where a test container refused the registration.
            let refused: Int?
            /// Written only where a `fake` mutant applies.
            let fake: Bool?
            /// Written only where some test resolved it; at most `listedTestNameLimit` names.
            let resolvedBy: [String]?
            /// Written only where some test's whole-graph check built it.
            let verifiedBy: [String]?

            func entry(kind: WiringCoverage.Entry.Kind) -> WiringCoverage.Entry {
                WiringCoverage.Entry(
                    kind: kind, key: key, scope: scope, site: RegistrationSite(fileID: file, line: line), testCount: tests,
                    refusedTestCount: refused ?? 0, testNames: resolvedBy ?? [], hasFake: fake ?? false,
                    verificationTestNames: verifiedBy ?? [])
            }
        }

        let format: String
        let version: Int
        let totals: Totals
        let registrations: [Item]
        let doubles: [Item]
    }
}
