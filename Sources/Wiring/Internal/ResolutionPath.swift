/// The path of a resolution: the registrations being resolved, from the top-level request
/// down. Entering a registration already on it is a cycle, unless a hook asks for an instance
/// still being built; a path deeper than `Resolution.maximumDepth`, or a stack nearly full,
/// stops the resolution with an error.
extension Resolution {
    /// Puts `entry` on the path, unless it is already there: then the path is a cycle.
    package func enter(_ entry: RegistrationEntry) throws {
        assert(isUsedByItsOwner, "a resolution is used only by the thread or task that runs it")
        if _slowPath(state.steps.count >= Resolution.maximumDepth || UnsafeStackBounds.isNearlyFull(above: state.stackFloor)) {
            throw tooDeep(entry.key)
        }
        if state.steps.contains(id: entry.id) { try enterAgain(entry) }
        state.steps.push(entry)
    }

    /// Takes `entry`, the innermost registration, off the path.
    package func leave(_ entry: RegistrationEntry) {
        state.steps.pop(entry)
    }

    /// `entry` is on the path already. That is a cycle, unless an `initCompleted` hook below it
    /// asks for an instance still being built (a back reference set on the inner object): a
    /// shared one is then made inside the hook, and the step building it takes that one.
    @inline(never)
    private func enterAgain(_ entry: RegistrationEntry) throws {
        guard entry.policy.sharedWithinResolve, state.hookBoundary > 0, !state.steps.contains(id: entry.id, from: state.hookBoundary) else {
            throw circularDependency(entry.key)
        }
        state.remadeInHooks += 1
    }

    @inline(never)
    private func circularDependency(_ key: ServiceKey) -> ResolutionError {
        let keys = path
        let start = keys.firstIndex { $0 == key } ?? keys.startIndex
        return ResolutionError(
            key: key, path: keys + [key], reason: .circularDependency(cycle: Array(keys[start...]) + [key]))
    }

    @inline(never)
    private func tooDeep(_ key: ServiceKey) -> ResolutionError {
        ResolutionError(key: key, path: path + [key], reason: .tooDeep(limit: state.steps.count))
    }
}
