/// Where a factory that a synchronous resolve cannot always run runs: a registration's
/// (``RegistrationInfo/isolation``), and a trace step's in the test support.
public enum FactoryIsolation: Sendable, Equatable, CustomStringConvertible {
    /// On the main actor (`registerMainActor`): a synchronous resolve there runs it, an async
    /// one hops there.
    case mainActor
    /// Awaited (`registerAsync`): only an async resolve runs it.
    case async

    /// `main actor` or `async`, as traces and explanations show it.
    public var description: String {
        switch self {
        case .mainActor: "main actor"
        case .async: "async"
        }
    }
}
