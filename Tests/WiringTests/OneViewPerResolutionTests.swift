import Testing
import Wiring

/// A label whose text says which registration made it.
private final class Label: @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Two labels asked for in one resolution, around a change to the registrations.
private final class Pair: @unchecked Sendable {
    let first: Label
    let second: Label
    init(_ first: Label, _ second: Label) {
        self.first = first
        self.second = second
    }
}

/// A resolution sees the registrations as it first read them: a change made while it runs
/// applies from the next resolve on.
@Suite("One view of the registrations per resolution")
struct OneViewPerResolutionTests {
    @Test func aParentsRegistrationReplacedWhileAResolutionRunsAppliesFromTheNextResolve() throws {
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(Label.self) { _ in Label("first") }
        child.register(Pair.self) { r in
            let first = try r.resolve(Label.self)
            parent.register(Label.self) { _ in Label("second") }
            return Pair(first, try r.resolve(Label.self))
        }

        let pair = try child.resolve(Pair.self)

        #expect(pair.first.text == "first")
        #expect(pair.second.text == "first")
        #expect(try child.resolve(Label.self).text == "second")
    }

    @Test func aGrandparentsRegistrationAddedWhileAResolutionRunsIsNotSeenUntilTheNextResolve() throws {
        let grandparent = Container()
        let parent = Container(parent: grandparent)
        let child = Container(parent: parent)
        grandparent.register(Label.self, name: "missing") { _ in Label("grandparent") }
        parent.register(Label.self) { _ in Label("parent") }
        child.register(Pair.self) { r in
            // The grandparent's registry is read here, first.
            let first = try r.resolve(Label.self, name: "missing")
            grandparent.register(Label.self) { _ in Label("late") }
            parent.register(Label.self, name: "missing") { _ in Label("late parent") }
            return Pair(first, try r.resolve(Label.self, name: "missing"))
        }

        let pair = try child.resolve(Pair.self)

        #expect(pair.first.text == "grandparent")
        #expect(pair.second.text == "grandparent")
        #expect(try child.resolve(Label.self, name: "missing").text == "late parent")
    }
}
