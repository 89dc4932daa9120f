import Wiring

/// The stored-scope instances made while a layer was on top, by registration.
package final class LayerCache: Sendable {
    private struct Stored {
        let scope: Scope
        let object: AnyObject
    }

    private let instances = LockedState<[Int: Stored]>([:])

    package func instance(for entry: RegistrationEntry) -> AnyObject? {
        instances.withLock { $0[entry.id]?.object }
    }

    package func store(_ object: AnyObject, for entry: RegistrationEntry) {
        instances.withLock { $0[entry.id] = Stored(scope: entry.scope, object: object) }
    }

    /// Drops the instances of `scope`, returning them so they are released outside the lock.
    package func reset(_ scope: Scope) -> [AnyObject] {
        instances.withLock { instances in
            let dropped = instances.filter { $0.value.scope == scope }
            for id in dropped.keys { instances[id] = nil }
            return dropped.values.map(\.object)
        }
    }

    package func contains(_ entry: RegistrationEntry) -> Bool {
        instances.withLock { $0[entry.id] != nil }
    }
}
