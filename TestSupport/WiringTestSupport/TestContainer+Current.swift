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
    /// Tasks created inside inherit it, so tests running in parallel each see their own. This is
    /// how a test reaches its own test container; app code reads `Container.injectionResolver`
    /// (through its property wrappers), which the trait binds too. A test without the trait
    /// already holds its test container, and binds it for app code with
    /// `Container.withCurrent(test) { … }`.
    @TaskLocal public static var current: TestContainer?
}
