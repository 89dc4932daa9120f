/// The instance `box` keeps, read without a dynamic cast (which would look up the metadata of
/// `InstanceBox<Service>` at run time). Invariant: `box` is an `InstanceBox<Service>`: what a store keeps for a registration of
/// `Service` in a scope that does not hold weakly (checked in debug builds).
func keptValue<Service>(_ box: AnyObject, as serviceType: Service.Type) -> Service {
    assert(box is InstanceBox<Service>, "a kept \(type(of: box)) was read as \(Service.self)")
    return unsafeDowncast(box, to: InstanceBox<Service>.self).value
}

/// The identity and class of the object `value` is when `Value` is a class, read without a dynamic
/// cast or a retain: a class instance is one reference, as `AnyObject` is (checked in debug builds).
@inlinable package func identityOfClassInstance<Value>(_ value: Value) -> (object: ObjectIdentifier, type: ObjectIdentifier)? {
    guard Value.self is AnyClass else { return nil }
    let object = unsafeBitCast(value, to: AnyObject.self)
    assert(object === (value as AnyObject), "\(Value.self) is not one reference")
    return (ObjectIdentifier(object), ObjectIdentifier(type(of: object)))
}
