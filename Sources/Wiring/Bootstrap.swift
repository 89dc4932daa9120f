extension Registration {
    /// Makes the instance when the container is bootstrapped, ahead of the first request.
    ///
    /// ```swift
    /// container.register(Database.self) { _ in try SQLiteDatabase.open() }
    ///     .scope(.container)
    ///     .eager()
    /// try container.bootstrap()     // opens the database now, or reports why it cannot
    /// ```
    @discardableResult
    public func eager() -> Registration {
        container.updateOptions(key: key, id: id) { $0.isEager = true }
        return self
    }
}

extension Container {
    /// Resolves every eager registration of this container once, in registration order.
    /// - Throws: ``BootstrapError`` listing every registration that failed, not just the first.
    public func bootstrap() throws(BootstrapError) {
        var failures: [ResolutionError] = []
        for found in visibleRegistrations(includingParents: false) where found.entry.options.isEager {
            do {
                _ = try resolveErased(found)
            } catch let error as ResolutionError {
                failures.append(error)
            } catch {
                failures.append(ResolutionError(
                    key: found.entry.key, path: [found.entry.key], reason: .factoryFailed(underlying: error),
                    site: found.entry.site))
            }
        }
        if !failures.isEmpty { throw BootstrapError(failures: failures) }
    }
}

/// Every eager registration that `bootstrap()` could not make.
public struct BootstrapError: Error, CustomStringConvertible {
    /// One error per failed registration, in registration order.
    public let failures: [ResolutionError]

    /// Every failure, one block each, under a line that counts them.
    public var description: String {
        let count = failures.count == 1 ? "1 eager registration" : "\(failures.count) eager registrations"
        return (["bootstrap failed for \(count):"] + failures.map(\.description)).joined(separator: "\n\n")
    }
}
