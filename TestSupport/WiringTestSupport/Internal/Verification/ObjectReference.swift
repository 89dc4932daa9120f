/// The object `instance` is, when it is one: a class instance, also behind a protocol or `Any`.
/// Values (structs, enums, optionals, tuples, metatypes) have no identity and give `nil`.
func objectReference(in instance: Any) -> AnyObject? {
    // Opening the `Any` gives the instance as its own type, whose class a cheap check tells.
    if let object = _openExistential(instance, do: objectReference(of:)) { return object }
    // An `Any` made from a generic value of a protocol type holds that existential, which only
    // the runtime's cast looks through.
    return type(of: instance) is AnyClass ? conditionalCast(instance, to: AnyObject.self) : nil
}

/// `value` as an object, when its own type is a class; `nil` for a value.
///
/// Not `value as AnyObject`: on Linux that bridges, searching the protocol conformances of the
/// type at many times the cost of a resolution step, where a conditional cast checks the class.
/// (A value type would be boxed by either, so the type is checked first.)
func objectReference<Value>(of value: Value) -> AnyObject? {
    guard Value.self is AnyClass else { return nil }
    return conditionalCast(value, to: AnyObject.self)
}

/// `value as? Target`. Generic in the target, so that the compiler does not flag the cast to
/// `AnyObject` as one that always succeeds: it does, but as a cast, not a bridge.
private func conditionalCast<Value, Target>(_ value: Value, to target: Target.Type) -> Target? {
    value as? Target
}
