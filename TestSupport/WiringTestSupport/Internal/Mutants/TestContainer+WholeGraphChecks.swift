import Wiring

extension TestContainer {
    /// Notes that `check` (`verifyWiring`, `wiringManifest`) built `keys` for the test running
    /// now: coverage lists the test as verifying them (`wiring-mutants` runs it against their
    /// mutants), and under a mutant the process says the check ran, and what it found.
    func noteWholeGraphCheck(_ check: String, checked keys: [ServiceKey], problems: Int? = nil) {
        coverage.noteVerified(keys, by: RunningTests.current ?? TestRun(name: traces.unattributedTestName))
        WiringMutant.noteVerification(check, under: layers.mutant, problems: problems)
    }
}
