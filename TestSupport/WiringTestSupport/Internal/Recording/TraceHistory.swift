import Wiring

/// What a trace store has taken from its recorders: the trace, and what outlives clearing it.
struct TraceHistory {
    /// The top-level resolutions replayed so far, in the order they finished.
    var roots: [ResolutionTrace.Node] = []
    /// How often each key was resolved, at any depth.
    var counts: [ServiceKey: Int] = [:]
    /// Every registration a resolution used, by id; not forgotten by `clearTrace`.
    var used = EntrySet()
    /// The numbers instances were given; not restarted by `clearTrace`.
    var numbers = InstanceNumbers()
    /// The number of each object made while leaks are tracked, by identity (the newest made at
    /// an address); for `leakedInstances()`.
    var madeNumbers: [ObjectIdentifier: Int] = [:]
    /// Which tests resolved which registrations; not forgotten by `clearTrace`.
    var coverage = CoverageRecord()
    /// The test that resolutions no known test made count for: the test the container was made
    /// for or in, else the container itself, as one test.
    var unattributedTest = ""
    /// How many steps numbering instances compared steps with, over all resolutions.
    var numberingComparisons = 0
}

/// A set of registration ids, which are small and dense: one bit each.
struct EntrySet {
    /// Bit `id % 64` of word `id / 64` is set for each id in the set.
    private var words: [UInt64] = []

    /// Adds the registration with `id`.
    mutating func insert(_ id: Int) {
        let word = id >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(id & 63)
    }

    /// Whether the registration with `id` is in the set.
    func contains(_ id: Int) -> Bool {
        let word = id >> 6
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }
}
