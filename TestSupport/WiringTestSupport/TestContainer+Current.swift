extension TestContainer {
    /// The test container of the test running in this task, if something bound one: the
    /// `.testContainer { … }` trait of `WiringSwiftTesting` does, for each test and each argument.
    ///
    /// ```swift
    /// @Test(.testContainer { makeAppContainer() }) func checkout() throws {
    ///     let test = try #require(TestContainer.current)
    /// }
    /// ```
    ///
    /// Tasks created inside inherit it, so tests running in parallel each see their own. Bind one
    /// yourself with `TestContainer.$current.withValue(test) { … }`.
    @TaskLocal public static var current: TestContainer?
}
