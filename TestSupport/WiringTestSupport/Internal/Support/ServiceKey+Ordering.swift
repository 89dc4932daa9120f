import Wiring

extension ServiceKey {
    /// The description with the type named with its module and the types it is nested in:
    /// `Payments.Client` as `AppKit.Payments.Client`, what tells two types of one name apart in a
    /// report, and what a mutant may name either by. A private type's context, which Swift names
    /// by an address that changes from one process to the next, is left out.
    var moduleQualifiedDescription: String {
        let qualified = String(reflecting: serviceType).replacing(/\(unknown context at \$[0-9a-f]+\)\./, with: "")
        return qualified + description.dropFirst(typeDescription.count)
    }
}

extension Sequence {
    /// The elements in the order rendered text lists their keys: by label
    /// (`ServiceKey.description`), so that the order depends neither on registration order nor
    /// on a dictionary's.
    ///
    /// Two types of one name from different modules are told apart by their full names, which
    /// are as stable as the labels.
    /// - Parameter key: The key of an element.
    func sorted(byLabelOf key: (Element) -> ServiceKey) -> [Element] {
        let ordered = map { element in
            let key = key(element)
            // The whole name last: a label shortens a long name, so two may share one.
            return (element: element, order: [key.description, String(reflecting: key.serviceType)]
                + key.argumentTypes.map { String(reflecting: $0) } + [key.name ?? ""])
        }
        return ordered.sorted { $0.order.lexicographicallyPrecedes($1.order) }.map(\.element)
    }
}

extension Sequence<ServiceKey> {
    /// The keys in the order rendered text lists them: by label.
    func sortedByLabel() -> [ServiceKey] {
        sorted(byLabelOf: { $0 })
    }
}
