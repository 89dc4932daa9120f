/// The instance `box` keeps, which must be an `InstanceBox<Service>`: what a store keeps for a
/// registration of `Service` in a scope that does not hold weakly. Checked in every build by the
/// type the box records, without a dynamic cast to `InstanceBox<Service>` (which would look its
/// metadata up at run time).
func keptValue<Service>(_ box: AnyObject, as serviceType: Service.Type) -> Service {
    let kept = box as! KeptInstance
    precondition(kept.valueType == Service.self, "a kept \(type(of: box)) was read as \(Service.self)")
    return unsafeDowncast(kept, to: InstanceBox<Service>.self).value
}

/// The identity and class of the object `value` is when `Value` is a class, read without a dynamic
/// cast or a retain: a class instance is one reference, as `AnyObject` is (checked in debug builds).
package func identityOfClassInstance<Value>(_ value: Value) -> (object: ObjectIdentifier, type: ObjectIdentifier)? {
    guard Value.self is AnyClass else { return nil }
    let object = unsafeBitCast(value, to: AnyObject.self)
    assert(object === (value as AnyObject), "\(Value.self) is not one reference")
    return (ObjectIdentifier(object), ObjectIdentifier(type(of: object)))
}

/// What `entry`'s factory makes, with `resolution` as its resolver. `entry` must make `Service`s
/// (be a `TypedEntry<Service>`): checked in every build by the type the entry records, without a
/// dynamic cast.
@inline(__always)
func make<Service>(
    _ entry: RegistrationEntry, in resolution: Resolution, as serviceType: Service.Type
) throws -> Service {
    precondition(entry.madeType == Service.self, "the registration of \(entry.key) does not make a \(Service.self)")
    return try unsafeDowncast(entry, to: TypedEntry<Service>.self).make(resolution, resolver: resolution)
}
