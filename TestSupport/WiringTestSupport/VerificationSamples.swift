import Wiring

/// Sample runtime arguments for the registrations that take them, so `verifyWiring(samples:)`
/// can build those too instead of listing them as unchecked.
///
/// ```swift
/// let report = test.verifyWiring { samples in
///     samples.add(ProductViewModel.self, arguments: 42)
///     samples.add(Greeting.self, name: "formal", arguments: "Ada", true)
/// }
/// ```
public struct VerificationSamples {
    /// Resolves one registration with its sample arguments.
    typealias Sample = (any Resolver) throws -> Void
    /// Resolves one registration with its sample arguments, with `await`, in the caller's isolation.
    typealias AsyncSample = nonisolated(nonsending) (AsyncResolver) async throws -> Void

    /// The keys samples were added for, in the order first added.
    private(set) var keys: [ServiceKey] = []
    private var samples: [ServiceKey: Sample] = [:]
    private var asyncSamples: [ServiceKey: AsyncSample] = [:]

    init() {}

    /// The samples a closure such as `verifyWiring(samples:)` takes adds.
    init(_ adding: (inout VerificationSamples) -> Void) {
        adding(&self)
    }

    /// Adds arguments to build the registration of a type (and name) that takes them; its key is
    /// the type, the name and the types of `arguments`. Adding a key again replaces its sample.
    /// - Parameters:
    ///   - serviceType: The registered type.
    ///   - name: The registration's name, if any.
    ///   - arguments: Values of the factory's runtime arguments, in order.
    public mutating func add<Service, each Argument>(
        _ serviceType: Service.Type, name: String? = nil, arguments: repeat each Argument
    ) {
        let key = ServiceKey(serviceType, name: name, arguments: repeat (each Argument).self)
        let values = (repeat each arguments)
        if samples[key] == nil { keys.append(key) }
        samples[key] = { resolver in
            _ = try resolver.resolve(serviceType, name: name, arguments: repeat each values)
        }
        asyncSamples[key] = { resolver in
            _ = try await resolver.resolve(serviceType, name: name, arguments: repeat each values)
        }
    }

    /// The sample for a key, if one was added.
    func sample(for key: ServiceKey) -> Sample? {
        samples[key]
    }

    /// The sample for a key, to resolve with `await`, if one was added.
    func asyncSample(for key: ServiceKey) -> AsyncSample? {
        asyncSamples[key]
    }
}
