/// What a store keeps for an instance of a kept scope: the instance itself (``InstanceBox``), or
/// a weak reference to it for `.weak` (``WeakInstanceBox``).
package class KeptInstance: @unchecked Sendable {
    /// The type of the value an ``InstanceBox`` keeps, which tells its class; `nil` otherwise.
    let valueType: (any Any.Type)?

    init(valueType: (any Any.Type)?) {
        self.valueType = valueType
    }

    /// The instance as `Any`; `nil` for a weak one that is gone.
    package var anyValue: Any? { nil }
}

/// An instance of `.container` or a custom scope, as the type it was registered under. Never
/// changed once made.
package final class InstanceBox<Service>: KeptInstance, @unchecked Sendable {
    let value: Service

    init(_ value: Service) {
        self.value = value
        super.init(valueType: Service.self)
    }

    override package var anyValue: Any? { value }
}

/// An instance of `.weak` scope: kept only while someone else holds it.
package final class WeakInstanceBox: KeptInstance, @unchecked Sendable {
    package weak var object: AnyObject?

    package init(_ object: AnyObject) {
        self.object = object
        super.init(valueType: nil)
    }

    override package var anyValue: Any? { object }
}
