import Wiring
import WiringTestSupport

/// What failure messages say about the registrations behind a key, looked up without
/// resolving anything.
enum RegistrationLookup {
    /// The source to look registrations up in: a container or a test container.
    static func source(of resolver: any Resolver) -> (any ResolutionSource)? {
        resolver as? any ResolutionSource
    }

    /// Where the registration `key` resolves to comes from, with its scope:
    /// `.container, registered at App/Setup.swift:12` or `.graph, overridden at AppTests/CheckoutTests.swift:8`.
    static func describe(_ key: ServiceKey, in resolver: any Resolver) -> String? {
        guard let source = source(of: resolver), let found = source.lookup(key) else { return nil }
        let entry = found.entry
        if let test = resolver as? TestContainer, test.isFakeSeenHere(entry) {
            return "\(entry.scope), a fake registered at \(entry.site)"
        }
        let origin = found.origin != 0 && resolver is TestContainer ? "overridden" : "registered"
        return "\(entry.scope), \(origin) at \(entry.site)"
    }

    /// The registrations of the same type as `key` but another name or other arguments.
    static func nearMisses(of key: ServiceKey, in resolver: any Resolver) -> [String] {
        guard let source = source(of: resolver) else { return [] }
        return source.registrations(ofType: key.serviceType)
            .filter { $0.entry.key != key }
            .map { "\($0.entry.key) at \($0.entry.site)" }
    }
}

/// Indents every line of `text` by two spaces, to nest an error's text under a message.
func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}
