import Wiring

/// A test double's factory that takes runtime arguments, which need not be `@Sendable`, made
/// into the `@Sendable` factory the container stores.
///
/// Unchecked on purpose: a test may keep a double that is not `Sendable` (a spy it inspects
/// afterwards) and give the test container a factory that captures it. The test takes on that
/// the double is used from its own tasks, or is safe to share; see `TestContainer.override`.
/// (A struct with a parameter pack rather than `UncheckedSendable<Value>`: a value of variadic
/// function type cannot be abstracted into a plain generic parameter.)
struct UncheckedSendableFactory<Service, each Argument>: @unchecked Sendable {
    /// The factory as the test wrote it.
    let body: (any Resolver, repeat each Argument) throws -> Service

    /// Wraps `body`, which the test vouches for.
    init(_ body: @escaping (any Resolver, repeat each Argument) throws -> Service) {
        self.body = body
    }
}
