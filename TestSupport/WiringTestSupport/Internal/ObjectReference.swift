/// The object `instance` is, when it is one: a class instance, also behind a protocol or `Any`.
/// Values (structs, enums, optionals, tuples, metatypes) have no identity and give `nil`.
///
/// A class instance held by the `Any` directly is found without a cast. One behind a protocol
/// existential is found by `instance as AnyObject`, which on Linux first searches the protocol
/// conformances of its type for a bridging one, at many times the cost of a resolution step.
func objectReference(in instance: Any) -> AnyObject? {
    if let object = _openExistential(instance, do: directObjectReference(of:)) { return object }
    return type(of: instance) is AnyClass ? instance as AnyObject : nil
}

private func directObjectReference<Value>(of value: Value) -> AnyObject? {
    guard Value.self is AnyClass else { return nil }
    return unsafeBitCast(value, to: AnyObject.self)
}
