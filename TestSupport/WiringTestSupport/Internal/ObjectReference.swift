/// The object `instance` is, when it is one: a class instance, also behind a protocol or `Any`.
/// Values (structs, enums, optionals, tuples, metatypes) have no identity and give `nil`.
func objectReference(in instance: Any) -> AnyObject? {
    if let object = _openExistential(instance, do: directObjectReference(of:)) { return object }
    return type(of: instance) is AnyClass ? instance as AnyObject : nil
}

/// The object `value` is, when its static type is a class: found without a cast.
///
/// An instance of a protocol or `Any` gives `nil` here, though it may hold an object.
/// `instance as AnyObject` finds that one, but on Linux only after searching the protocol
/// conformances of its type for a bridging one, at many times the cost of the rest of a step.
func directObjectReference<Value>(of value: Value) -> AnyObject? {
    guard Value.self is AnyClass else { return nil }
    return unsafeBitCast(value, to: AnyObject.self)
}
