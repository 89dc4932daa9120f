import Testing
import Wiring
import WiringTestHelpers

/// A resolution sees the registrations as it first read them: a change made while it runs
/// applies from the next resolve on.
@Suite("One view of the registrations per resolution")
struct OneViewPerResolutionTests {
    @Test func aParentsRegistrationReplacedWhileAResolutionRunsAppliesFromTheNextResolve() throws {
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(NamedLabel.self) { _ in NamedLabel("first") }
        child.register(NamedLabelPair.self) { r in
            let first = try r.resolve(NamedLabel.self)
            parent.register(NamedLabel.self) { _ in NamedLabel("second") }
            return NamedLabelPair(first, try r.resolve(NamedLabel.self))
        }

        let pair = try child.resolve(NamedLabelPair.self)

        #expect(pair.first.text == "first")
        #expect(pair.second.text == "first")
        #expect(try child.resolve(NamedLabel.self).text == "second")
    }

    @Test func aGrandparentsRegistrationAddedWhileAResolutionRunsIsNotSeenUntilTheNextResolve() throws {
        let grandparent = Container()
        let parent = Container(parent: grandparent)
        let child = Container(parent: parent)
        grandparent.register(NamedLabel.self, name: "missing") { _ in NamedLabel("grandparent") }
        parent.register(NamedLabel.self) { _ in NamedLabel("parent") }
        child.register(NamedLabelPair.self) { r in
            // The grandparent's registry is read here, first.
            let first = try r.resolve(NamedLabel.self, name: "missing")
            grandparent.register(NamedLabel.self) { _ in NamedLabel("late") }
            parent.register(NamedLabel.self, name: "missing") { _ in NamedLabel("late parent") }
            return NamedLabelPair(first, try r.resolve(NamedLabel.self, name: "missing"))
        }

        let pair = try child.resolve(NamedLabelPair.self)

        #expect(pair.first.text == "grandparent")
        #expect(pair.second.text == "grandparent")
        #expect(try child.resolve(NamedLabel.self, name: "missing").text == "late parent")
    }
}
