import Wiring

extension TestContainer {
    /// Declares this test container made for `test` alone, by `maker` (the `.testContainer`
    /// trait, `makeTestContainer(base:)`): resolutions no known test makes count for `test`,
    /// and resolving through it after `test` ended is reported.
    package func declareMade(for test: TestRun, by maker: String) {
        test.noteTestContainer()
        RunningTests.noteOwner(test)
        layers.declareOwner(test, madeBy: maker)
        traces.setUnattributedTest(test.name)
    }
}
