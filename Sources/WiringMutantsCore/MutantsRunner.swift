import Foundation

/// Runs a package's tests against every mutant of its wiring: builds the tests once, runs them
/// once with wiring coverage on to learn which tests resolved which registration, then runs
/// only those tests against each mutant, in parallel, each run bounded in time.
package struct MutantsRunner: Sendable {
    package let options: MutantsOptions
    /// Where the runner says what it does: standard error, in the command.
    private let log: @Sendable (String) -> Void
    private let isTerminal: Bool

    /// Why the run could not go on.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package init(options: MutantsOptions, isTerminal: Bool = false, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.isTerminal = isTerminal
        self.log = log
    }

    /// The report of every mutant.
    package func run() throws -> MutantsReport {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-mutants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let binary = try options.testBinary.map { TestBinary(path: $0, packagePath: options.packagePath) } ?? build(in: work)
        let catalog = try listTests(of: binary, in: work)
        let coverage = try learnCoverage(running: binary, catalog: catalog, in: work)
        let baseline = try readBaseline()
        return try runMutants(of: coverage, binary: binary, catalog: catalog, baseline: baseline, in: work)
    }

    // MARK: Building and learning

    private func swift(_ arguments: [String]) -> [String] {
        ["swift"] + arguments + ["--package-path", options.packagePath] + (options.scratchPath.map { ["--scratch-path", $0] } ?? [])
    }

    /// Builds the tests once: every run after this one only runs them.
    private func build(in work: String) throws -> TestBinary {
        log("wiring-mutants: building the tests (swift build --build-tests)\n")
        let built = try BoundedProcess.capture(
            "/usr/bin/env", arguments: swift(["build", "--build-tests"]), environment: environment(), in: work, timeout: 3600)
        guard built.outcome.succeeded else {
            throw Failure(description: "swift build --build-tests failed:\n" + Self.tail(built.output))
        }
        #if os(Linux)
        let binPath = try BoundedProcess.capture(
            "/usr/bin/env", arguments: swift(["build", "--show-bin-path"]), environment: environment(), in: work, timeout: 600)
        let directory = binPath.output.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let found = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasSuffix(".xctest") }.sorted()
        guard let name = found?.first else {
            throw Failure(description: "no test binary (*.xctest) in \(directory): does the package have test targets?")
        }
        return TestBinary(path: (directory as NSString).appendingPathComponent(name), packagePath: options.packagePath)
        #else
        return TestBinary(path: nil, packagePath: options.packagePath, scratchPath: options.scratchPath)
        #endif
    }

    private func listTests(of binary: TestBinary, in work: String) throws -> TestCatalog {
        let listings = binary.listings
        let xctest = try BoundedProcess.capture(
            listings.xctest.executable, arguments: listings.xctest.arguments, environment: environment(), in: work, timeout: 600)
        guard xctest.outcome.succeeded else {
            throw Failure(description: "cannot list the tests (\(listings.xctest.executable)):\n" + Self.tail(xctest.output))
        }
        var swiftTesting = ""
        if let listing = listings.swiftTesting {
            let listed = try BoundedProcess.capture(
                listing.executable, arguments: listing.arguments, environment: environment(), in: work, timeout: 600)
            // A binary without Swift Testing lists nothing.
            if listed.outcome.succeeded { swiftTesting = listed.output }
        }
        let catalog = TestCatalog(xctestList: xctest.output, swiftTestingList: swiftTesting, targets: options.targets)
        guard !catalog.xctest.isEmpty || !catalog.swiftTesting.isEmpty else {
            let asked = options.targets.isEmpty ? "" : " in \(options.targets.joined(separator: ", "))"
            throw Failure(description: "no tests\(asked): check --target against the test targets of the package")
        }
        return catalog
    }

    /// Runs the tests once, unmutated, with wiring coverage on: which tests resolved which registration.
    private func learnCoverage(running binary: TestBinary, catalog: TestCatalog, in work: String) throws -> CoverageInput {
        log("wiring-mutants: running the tests once with wiring coverage on\n")
        let report = (work as NSString).appendingPathComponent("wiring-coverage.txt")
        var environment = environment()
        environment["WIRING_COVERAGE"] = report
        environment["WIRING_COVERAGE_RUN"] = UUID().uuidString
        for invocation in binary.invocations(for: catalog.wholeTargets) {
            let run = try BoundedProcess.capture(
                invocation.executable, arguments: invocation.arguments, environment: environment, in: work,
                timeout: max(options.timeout, 600))
            guard run.outcome.succeeded else {
                throw Failure(description: "the tests fail without any mutant; fix them first:\n" + Self.tail(run.output))
            }
        }
        let json = (work as NSString).appendingPathComponent("wiring-coverage.json")
        guard let data = FileManager.default.contents(atPath: json) else {
            throw Failure(description: "the tests wrote no wiring coverage (\(json)): do they resolve through a TestContainer of WiringTestSupport?")
        }
        return try CoverageInput(data: data, path: json)
    }

    private func readBaseline() throws -> Baseline {
        guard let path = options.baselinePath else { return Baseline() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "cannot read the baseline \(path): give the path of a file of accepted survivors, or leave --baseline out")
        }
        return try Baseline(text: text, path: path)
    }

    // MARK: Mutants

    /// One mutant to run: its registration, its mutation, the tests to run and how.
    private struct Job: Sendable {
        let registration: CoverageInput.Registration
        let mutation: Mutation
        let tests: [String]
        let selection: TestSelection
        /// The Swift Testing tests the selection runs, by identifier: those a display name may be.
        let swiftTestingRun: [String]
    }

    private func runMutants(
        of coverage: CoverageInput, binary: TestBinary, catalog: TestCatalog, baseline: Baseline, in work: String
    ) throws -> MutantsReport {
        var registrations = coverage.registrations
        if let only = options.only {
            registrations = registrations.filter { $0.key == only }
            guard !registrations.isEmpty else {
                let keys = coverage.registrations.map(\.key).prefix(20).map { Self.shortened($0) }.joined(separator: ", ")
                throw Failure(
                    description: "no registration \(Self.shortened(only.debugDescription)) in the coverage; "
                        + "--only takes a key as the report prints it: \(keys)")
            }
        }
        var results: [MutantsReport.Mutant?] = []
        var jobs: [(index: Int, job: Job)] = []
        for registration in registrations {
            let resolvedBy = registration.resolvedBy ?? []
            let tests = resolvedBy + (registration.verifiedBy ?? []).filter { !resolvedBy.contains($0) }
            // A cut list names some of the tests: all of them run then.
            let isCut = registration.tests > resolvedBy.count
            let selection = isCut ? catalog.wholeTargets : catalog.selection(of: tests)
            for mutation in registration.mutations {
                if tests.isEmpty && !isCut {
                    results.append(mutant(registration, mutation, .notCovered, tests: []))
                } else {
                    let swiftTestingRun = selection.wholeTargets == nil ? selection.swiftTesting : catalog.swiftTesting
                    jobs.append((
                        results.count,
                        Job(
                            registration: registration, mutation: mutation, tests: tests, selection: selection,
                            swiftTestingRun: swiftTestingRun)
                    ))
                    results.append(nil)
                }
            }
        }
        log("wiring-mutants: \(results.count) mutants of \(registrations.count) registrations, \(jobs.count) to run, \(options.jobs) at a time\n")
        let progress = Progress(total: jobs.count, isTerminal: isTerminal, write: log)
        let finished = try runInParallel(jobs.map(\.job)) { job in
            let result = try run(job, binary: binary, in: work)
            progress.finished(killed: result.outcome != .survived)
            return result
        }
        for (slot, result) in zip(jobs.map(\.index), finished) { results[slot] = result }
        return MutantsReport(mutants: results.compactMap { $0 }.map { result in
            var result = result
            if result.outcome == .survived, baseline.accepted.contains(result.name) { result.accepted = true }
            return result
        })
    }

    private func mutant(
        _ registration: CoverageInput.Registration, _ mutation: Mutation, _ outcome: MutantsReport.Outcome,
        killedBy: String? = nil, tests: [String], reproduce: String? = nil
    ) -> MutantsReport.Mutant {
        MutantsReport.Mutant(
            key: registration.key, scope: registration.scope, file: registration.file, line: registration.line,
            mutation: mutation, outcome: outcome, killedBy: killedBy, tests: tests, reproduce: reproduce)
    }

    /// Runs `job`'s tests against its mutant and says what became of it.
    private func run(_ job: Job, binary: TestBinary, in work: String) throws -> MutantsReport.Mutant {
        var environment = environment()
        let name = "\(job.registration.key):\(job.mutation.rawValue)"
        environment["WIRING_MUTANT"] = name
        let deadline = Date().addingTimeInterval(options.timeout)
        var output = ""
        var timedOut = false
        var failedWithoutName: String?
        for invocation in binary.invocations(for: job.selection) {
            let run = try BoundedProcess.capture(
                invocation.executable, arguments: invocation.arguments, environment: environment, in: work,
                timeout: max(1, deadline.timeIntervalSinceNow))
            output += run.output
            if run.outcome.timedOut {
                timedOut = true
                break
            }
            if !run.outcome.succeeded, failedWithoutName == nil {
                let running = TestOutput.testRunningAtTheEnd(of: run.output).map { " in \($0)" } ?? ""
                failedWithoutName = run.outcome.wasSignalled
                    ? "a crash (signal \(run.outcome.status))\(running)" : "exit status \(run.outcome.status)\(running)"
            }
        }
        let reproduce = "WIRING_MUTANT=\(Self.shellQuoted(name)) swift test --filter \(Self.shellQuoted(job.selection.swiftTestFilter))"
        if timedOut {
            return mutant(job.registration, job.mutation, .timedOut, tests: job.tests, reproduce: reproduce)
        }
        guard let failure = failedWithoutName else {
            return mutant(job.registration, job.mutation, .survived, tests: job.tests, reproduce: reproduce)
        }
        let failed = failedTests(in: output, of: job, mutant: name)
        let resolvedBy = job.registration.resolvedBy ?? []
        let verificationOnly = (job.registration.verifiedBy ?? []).filter { !resolvedBy.contains($0) }
        func onlyVerified(_ failure: (printed: String, tests: [String])) -> Bool {
            !failure.tests.isEmpty && failure.tests.allSatisfy(verificationOnly.contains)
        }
        func named(_ failure: (printed: String, tests: [String])) -> String {
            failure.tests.count == 1 ? failure.tests[0] : failure.printed
        }
        // Caught by verification only when every test that failed is one that only verified.
        if let first = failed.first, failed.allSatisfy(onlyVerified) {
            return mutant(job.registration, job.mutation, .caughtByVerification, killedBy: named(first), tests: job.tests)
        }
        let killer = failed.first { !onlyVerified($0) }.map(named) ?? failure
        return mutant(job.registration, job.mutation, .killed, killedBy: killer, tests: job.tests)
    }

    /// The failures `output` of `job`'s run under `mutant` prints, first first, each with the
    /// tests it may be: the one its name is, or, for a Swift Testing display name (which says
    /// nothing of the function's name), those of the run no line names otherwise. Where the
    /// process says in as many of those as there are such failures that verification found
    /// problems (`TestOutput.verificationMarker`), which fails a test, the failures are those.
    private func failedTests(in output: String, of job: Job, mutant: String) -> [(printed: String, tests: [String])] {
        let printed = TestOutput.failedTests(in: output)
        let displayed = printed.filter(TestOutput.isDisplayName)
        var byDisplayName: [String] = []
        if !displayed.isEmpty {
            // A name only eliminates the one test it can be: a function name two suites share names neither.
            var namedOtherwise: Set<String> = []
            for name in TestOutput.swiftTestingNames(in: output) where !TestOutput.isDisplayName(name) {
                let tests = job.swiftTestingRun.filter { TestOutput.name(name, isTest: $0) }
                if tests.count == 1 { namedOtherwise.insert(tests[0]) }
            }
            byDisplayName = job.swiftTestingRun.filter { !namedOtherwise.contains($0) }
            let verificationFailed = TestOutput.testsVerificationFailed(in: output, under: mutant).filter(byDisplayName.contains)
            if verificationFailed.count == displayed.count { byDisplayName = verificationFailed }
        }
        return printed.map { printed in
            if TestOutput.isDisplayName(printed) { return (printed, byDisplayName) }
            let ofJob = job.tests.filter { TestOutput.name(printed, isTest: $0) }
            return (printed, ofJob.isEmpty ? job.swiftTestingRun.filter { TestOutput.name(printed, isTest: $0) } : ofJob)
        }
    }

    /// Runs `body` on each of `jobs`, `options.jobs` at a time, and gives the results in order.
    private func runInParallel<Job: Sendable, Result: Sendable>(
        _ jobs: [Job], _ body: @escaping @Sendable (Job) throws -> Result
    ) throws -> [Result] {
        let pool = WorkPool<Result>(count: jobs.count)
        let group = DispatchGroup()
        for _ in 0..<min(options.jobs, max(jobs.count, 1)) {
            group.enter()
            Thread.detachNewThread {
                while let index = pool.next() {
                    pool.finish(index, with: Swift.Result { try body(jobs[index]) })
                }
                group.leave()
            }
        }
        group.wait()
        return try pool.results()
    }

    // MARK: Support

    /// This process's environment, less what would make a test process write coverage or run
    /// a mutant of its own, with crash backtraces off (a killed run ends at once).
    private func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for variable in ["WIRING_COVERAGE", "WIRING_COVERAGE_RUN", "WIRING_MUTANT"] { environment[variable] = nil }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// The last lines of `output`: what says why a build or run failed, bounded.
    static func tail(_ output: String, lines count: Int = 30) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }

    /// `text` whole if short, else its start and end and how long it was, so that a message
    /// naming keys stays small whatever their length (a deeply generic type's name).
    static func shortened(_ text: String, head: Int = 60, tail: Int = 20) -> String {
        // Characters, but never more than a few kilobytes: one character may join any number of
        // Unicode scalars (a letter and its accents), so long ends are cut by scalars.
        let bytes = text.utf8.count
        guard bytes > head + tail + 1 else { return text }
        let count = text.count
        guard count > head + tail + 1 || bytes > 4_096 else { return text }
        let length = count > head + tail + 1 ? "\(count) characters" : "\(bytes) bytes"
        var start = text.prefix(head)
        if start.utf8.count > 1_024 { start = Substring(text.unicodeScalars.prefix(head)) }
        var end = text.suffix(tail)
        if end.utf8.count > 1_024 { end = Substring(text.unicodeScalars.suffix(tail)) }
        return "\(start)…\(end) (\(length))"
    }

    /// `text` in single quotes, for a shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The jobs a pool of threads takes in turn, and their results by index.
private final class WorkPool<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var slots: [Result<Value, any Error>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < slots.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func finish(_ index: Int, with result: Result<Value, any Error>) {
        lock.withLock { slots[index] = result }
    }

    func results() throws -> [Value] {
        try lock.withLock { slots }.map { slot in
            guard let slot else { throw MutantsRunner.Failure(description: "a mutant's run never finished") }
            return try slot.get()
        }
    }
}
