/// A container's registrations. A resolution keeps the registry it first saw and looks up in it
/// without locking; the container copies it before changing it while someone keeps it.
package final class Registry: UnsafeRegistryStorage {
    override package init() {
        super.init()
    }

    private init(copying other: Registry) {
        super.init(copying: other)
    }

    package func copy() -> Registry {
        Registry(copying: self)
    }

    package subscript(key: ServiceKey) -> RegistrationEntry? {
        key.name == nil ? unnamed(TypeTableKey(key))?.object : keyedEntry(key)
    }



    package var entries: [RegistrationEntry] {
        order.compactMap { self[$0] }
    }
}
