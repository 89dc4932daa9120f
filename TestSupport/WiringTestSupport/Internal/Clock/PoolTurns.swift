/// Suspends the calling task for one turn of the cooperative pool: it resumes only after a job
/// of its own has gone through the pool's queue three times (started, yielded, finished), so
/// jobs queued before it, such as tasks a test clock has just woken, get to run first. At
/// background priority, so that they go first where the pool honours priorities.
func waitOneTurnOfThePool() async {
    await Task.detached(priority: .background) { await Task.yield() }.value
}
