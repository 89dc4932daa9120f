import Wiring

/// Which tests resolved which registrations, of one test container or added up over many.
///
/// A registration is told apart by its kind, key and site, never by the container holding it:
/// containers built by the same function in many tests add up.
struct CoverageRecord: Sendable {
    /// A registration, override or fake, as coverage tells them apart.
    struct Item: Hashable, Sendable {
        let kind: WiringCoverage.Entry.Kind
        let key: ServiceKey
        let site: RegistrationSite
    }

    /// What is known of one item: the scopes it was registered with, and the tests that resolved it.
    struct Tally: Sendable {
        var scopes: Set<Scope> = []
        var tests: Set<String> = []
        /// The tests a test container refused the registration in (live-only).
        var refusedIn: Set<String> = []
        /// Whether some test container had a fake for it, or its type answers for itself
        /// (`Injectable`): where a `fake` mutant applies.
        var hasFake = false
        /// The tests whose `verifyWiring` or `wiringManifest` built it, in a sandbox.
        var verifiedBy: Set<String> = []
    }

    private(set) var items: [Item: Tally] = [:]

    /// Notes that `entry` exists, as a registration of `kind`, whether resolved or not.
    mutating func note(
        _ entry: RegistrationEntry, as kind: WiringCoverage.Entry.Kind, hasFake: Bool = false, verifiedBy: Set<String> = []
    ) {
        guard !entry.options.isImplicit else { return }
        let item = Item(kind: kind, key: entry.key, site: entry.site)
        items[item, default: Tally()].scopes.insert(entry.scope)
        if hasFake { items[item, default: Tally()].hasFake = true }
        if !verifiedBy.isEmpty { items[item, default: Tally()].verifiedBy.formUnion(verifiedBy) }
    }

    /// Notes that `test` resolved `entry`, a registration of `kind`.
    mutating func noteResolved(_ entry: RegistrationEntry, as kind: WiringCoverage.Entry.Kind, by test: String) {
        guard !entry.options.isImplicit else { return }
        let item = Item(kind: kind, key: entry.key, site: entry.site)
        items[item, default: Tally()].scopes.insert(entry.scope)
        items[item, default: Tally()].tests.insert(test)
    }

    /// Adds up `other`: the tests of each item together.
    /// Counts `entry`, a live-only registration a test container refused, for `test`: reached,
    /// but not resolved.
    mutating func noteRefused(_ entry: RegistrationEntry, by test: String) {
        let item = Item(kind: .registration, key: entry.key, site: entry.site)
        items[item, default: Tally()].scopes.insert(entry.scope)
        items[item, default: Tally()].refusedIn.insert(test)
    }

    mutating func merge(_ other: CoverageRecord) {
        if items.isEmpty {
            items = other.items
            return
        }
        items.merge(other.items) { mine, theirs in
            Tally(
                scopes: mine.scopes.union(theirs.scopes), tests: mine.tests.union(theirs.tests),
                refusedIn: mine.refusedIn.union(theirs.refusedIn), hasFake: mine.hasFake || theirs.hasFake,
                verifiedBy: mine.verifiedBy.union(theirs.verifiedBy))
        }
    }

    /// The record as a report: each item with how many tests resolved it, and the tests in all.
    var coverage: WiringCoverage {
        let labels = Self.labels(of: items.keys)
        let entries = items.map { item, tally in
            WiringCoverage.Entry(
                kind: item.kind, key: labels[item] ?? item.key.description,
                scope: tally.scopes.map(\.description).sorted().joined(separator: ", "),
                site: item.site, testCount: tally.tests.count, refusedTestCount: tally.refusedIn.count,
                testNames: WiringCoverage.Entry.listed(tally.tests), hasFake: tally.hasFake,
                verificationTestNames: WiringCoverage.Entry.listed(tally.verifiedBy))
        }
        let tests = items.values.reduce(into: Set<String>()) { $0.formUnion($1.tests) }
        return WiringCoverage(entries: entries, testCount: tests.count)
    }

    /// Each item's key as the report names it: as `ServiceKey` describes it, unless another item
    /// of the same kind and site reads the same (two types of one name in two modules, registered
    /// through one helper), when each names its type with its module: a report, and the counts
    /// added up across processes, tell them apart.
    private static func labels(of items: some Collection<Item>) -> [Item: String] {
        var readingAlike: [String: [Item]] = [:]
        for item in items {
            readingAlike["\(item.kind) \(item.key.description) \(item.site)", default: []].append(item)
        }
        var labels: [Item: String] = [:]
        for alike in readingAlike.values where alike.count > 1 {
            for item in alike { labels[item] = item.key.moduleQualifiedDescription }
        }
        return labels
    }
}
