import Wiring

/// What the report and the warnings say of a registration whose kept scope cannot tell its
/// runtime arguments apart: one text for both.
struct ScopeIgnoringArguments {
    static let identifier = "scope-ignores-arguments"

    let message: String
    let fix: String

    init(_ entry: RegistrationEntry) {
        let key = entry.key
        let unhashable = key.argumentTypes.filter { !($0 is any Hashable.Type) }.map { typeName($0) }
        message = """
            \(key) is kept in .\(entry.scope.name) scope, but its runtime arguments are not all Hashable \
            (\(unhashable.joined(separator: ", "))), so one instance, made with the first call's arguments, answers every call
            """
        fix = """
            make \(unhashable.joined(separator: " and ")) Hashable, so that each distinct set of arguments gets an \
            instance of its own, or register \(key.typeDescription) as .transient or .graph.
            """
    }

    /// Every registration `test` sees whose kept scope ignores its arguments.
    static func entries(in test: TestContainer) -> [RegistrationEntry] {
        test.visibleRegistrations(includingParents: true).map(\.entry).filter(\.keepsOneInstanceForAllArguments)
    }
}
