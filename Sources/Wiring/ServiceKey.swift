/// What a registration is stored under and a resolution asks for: a type, an optional name and
/// the types of the runtime arguments its factory takes.
///
/// ```swift
/// ServiceKey(Network.self)
/// ServiceKey(Database.self, name: "primary")
/// ServiceKey(ViewModel.self, arguments: Int.self, String.self)
/// ```
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    /// The type that is registered or requested.
    public let serviceType: any Any.Type
    /// The name that tells registrations of the same type apart, if any.
    public let name: String?
    package let argumentList: any ArgumentList.Type

    /// A key for a service that takes no runtime arguments.
    /// - Parameters:
    ///   - serviceType: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    public init<Service>(_ serviceType: Service.Type, name: String? = nil) {
        self.serviceType = serviceType
        self.name = name
        self.argumentList = NoArguments.self
    }

    /// A key for a service whose factory takes runtime arguments of the given types.
    /// - Parameters:
    ///   - serviceType: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - arguments: The types of the factory's runtime arguments, in order.
    public init<Service, each Argument>(
        _ serviceType: Service.Type, name: String? = nil, arguments: repeat (each Argument).Type
    ) {
        self.serviceType = serviceType
        self.name = name
        self.argumentList = ArgumentTypes<repeat each Argument>.listType
    }

    @usableFromInline
    package init(serviceType: any Any.Type, name: String?, argumentList: any ArgumentList.Type) {
        self.serviceType = serviceType
        self.name = name
        self.argumentList = argumentList
    }

    /// The types of the runtime arguments, in order; empty when the factory takes none.
    public var argumentTypes: [any Any.Type] { argumentList.types }

    /// Whether the factory registered under this key needs runtime arguments.
    public var takesArguments: Bool { argumentList != NoArguments.self }

    package var typeIdentifier: ObjectIdentifier { ObjectIdentifier(serviceType) }

    /// Unnamed and without runtime arguments.
    package var isPlain: Bool { name == nil && argumentList == NoArguments.self }

    /// The same key with another name.
    package func named(_ newName: String?) -> ServiceKey {
        ServiceKey(serviceType: serviceType, name: newName, argumentList: argumentList)
    }

    /// Whether both keys have the same type, name and argument types. Names compare as Swift
    /// compares strings (by canonical equivalence) up to 4,096 bytes of UTF-8, and by their bytes
    /// beyond, so that no name, however hostile, makes a comparison cost more than its bytes.
    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.serviceType == rhs.serviceType && lhs.argumentList == rhs.argumentList
            && BoundedText.sameName(lhs.name, rhs.name)
    }

    /// Hashes the type, the name and the argument types, as `==` compares them: a name compared
    /// by its bytes by its bytes, which costs no more than reading them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(serviceType))
        hasher.combine(ObjectIdentifier(argumentList))
        guard let name, BoundedText.comparesBytes(name) else {
            hasher.combine(name)
            return
        }
        for byte in name.utf8 { hasher.combine(byte) }
    }

    /// The type name, then the name and argument types when present:
    /// `Animal`, `Animal (name: "mimi")`, `Animal (arguments: String, Bool)`.
    ///
    /// A name longer than 300 characters is shown by its first 240 and last 40 characters and
    /// its length, `Animal (name: "abc…xyz" (100000 characters))`, so that every message naming
    /// the key stays readable.
    public var description: String {
        var details: [String] = []
        if let name { details.append("name: \(BoundedText.literal(name))") }
        let arguments = argumentTypes
        if !arguments.isEmpty {
            details.append("arguments: " + arguments.map(typeName).joined(separator: ", "))
        }
        let type = typeName(serviceType)
        return details.isEmpty ? type : "\(type) (\(details.joined(separator: ", ")))"
    }

    /// The name of the service type, as it is written in source.
    public var typeDescription: String { typeName(serviceType) }
}

/// How a type is shown in messages and traces: as written in source, without the module prefix.
/// A constrained existential is shown as written too: `any Clock<Duration>`, not the runtime's
/// `any Clock<Self.Clock.Duration == Duration>`.
package func typeName(_ type: any Any.Type) -> String {
    let described = String(describing: type)
    guard described.contains("<Self.") else { return described }
    return simplifyingConstraints(described)
}

/// Rewrites each `Self.P.A == X` between angle brackets to `X`, in one pass over the name.
private func simplifyingConstraints(_ name: String) -> String {
    var result = ""
    var rest = Substring(name)
    while let start = rest.range(of: "Self.") {
        result += rest[..<start.lowerBound]
        let afterSelf = rest[start.upperBound...]
        guard let equals = afterSelf.range(of: " == "),
            !afterSelf[..<equals.lowerBound].contains(where: { $0 == "<" || $0 == ">" || $0 == "," || $0 == " " })
        else {
            result += "Self."
            rest = afterSelf
            continue
        }
        rest = afterSelf[equals.upperBound...]
    }
    return result + rest
}

/// The runtime-argument types of a key, as one type whose identity stands for the whole list.
@usableFromInline
package protocol ArgumentList: Sendable {
    static var types: [any Any.Type] { get }
    /// Hands the argument types, as a parameter pack, to `visitor`: how code that only has a
    /// key (an implicit registration made for it) gets back to the types statically.
    static func accept<Visitor: ArgumentListVisitor>(_ visitor: Visitor) -> Visitor.Output
}

/// Receives the argument types of a key as a parameter pack; see `ArgumentList.accept`.
@usableFromInline
package protocol ArgumentListVisitor {
    associatedtype Output
    func visit<each Argument>(_ types: repeat (each Argument).Type) -> Output
}

@usableFromInline
package enum NoArguments: ArgumentList {
    @usableFromInline
    package static var types: [any Any.Type] { [] }

    @usableFromInline
    package static func accept<Visitor: ArgumentListVisitor>(_ visitor: Visitor) -> Visitor.Output {
        visitor.visit()
    }
}

/// A distinct type for every list of argument types, so that `(String, Bool)` as two arguments
/// and `(String, Bool)` as one tuple argument never share a key.
@usableFromInline
package struct ArgumentTypes<each Argument>: ArgumentList {
    @usableFromInline
    package static var types: [any Any.Type] {
        var types: [any Any.Type] = []
        for type in repeat (each Argument).self {
            types.append(type)
        }
        return types
    }

    @usableFromInline
    package static func accept<Visitor: ArgumentListVisitor>(_ visitor: Visitor) -> Visitor.Output {
        visitor.visit(repeat (each Argument).self)
    }

    /// Inlined into the caller, where the argument types are known: computed generically, the
    /// list type is a metadata instantiation on every call.
    @inlinable
    package static var listType: any ArgumentList.Type {
        var count = 0
        for _ in repeat (each Argument).self { count += 1 }
        return count == 0 ? NoArguments.self : ArgumentTypes<repeat each Argument>.self
    }
}
