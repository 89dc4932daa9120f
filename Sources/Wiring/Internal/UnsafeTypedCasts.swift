/// The instance `box` keeps, read without a dynamic cast (which would look up the metadata of
/// `InstanceBox<Service>` at run time). Invariant: `box` is an `InstanceBox<Service>`: what a store keeps for a registration of
/// `Service` in a scope that does not hold weakly (checked in debug builds).
func keptValue<Service>(_ box: AnyObject, as serviceType: Service.Type) -> Service {
    assert(box is InstanceBox<Service>, "a kept \(type(of: box)) was read as \(Service.self)")
    return unsafeDowncast(box, to: InstanceBox<Service>.self).value
}

/// The object `value` is, read without a dynamic cast, when `Value` is a class: a class instance
/// is one strong reference, laid out as `AnyObject` is (checked in debug builds); else `nil`.
package func objectOfClassType<Value>(_ value: Value) -> AnyObject? {
    guard Value.self is AnyClass else { return nil }
    assert(MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size, "\(Value.self) is not one reference")
    return unsafeBitCast(value, to: AnyObject.self)
}
