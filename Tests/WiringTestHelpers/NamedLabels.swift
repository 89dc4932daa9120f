/// A value whose text says which registration made it, for tests that check which one answered.
public final class NamedLabel: @unchecked Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }
}

/// Two labels asked for in one resolution, around a change to what answers them.
public final class NamedLabelPair: @unchecked Sendable {
    public let first: NamedLabel
    public let second: NamedLabel
    public init(_ first: NamedLabel, _ second: NamedLabel) {
        self.first = first
        self.second = second
    }
}
