/// One module's ``ModuleProtocol/moduleTearDown()`` raced against its time limit.
///
/// The teardown runs in a task of its own, not a child task: a task group would wait for a teardown that ignores
/// cancellation, and the point is to stop waiting for it.
enum TimedTeardown {
    private typealias Outcome = ModuleManager.TeardownRecord.Outcome

    /// Runs `module`'s teardown and returns when it finishes or when `timeLimit` has passed, whichever is first;
    /// a teardown still running then is cancelled.
    static func run(_ module: any ModuleProtocol, identifier: ModuleIdentifier, timeLimit: Duration) async -> ModuleManager.TeardownRecord {
        let clock = ContinuousClock()
        let start = clock.now
        var timer: Task<Void, Never>?
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let pending = Locked<CheckedContinuation<Outcome, Never>?>(continuation)
            // The first of the two tasks to settle resumes the caller; the other finds nothing to resume.
            let settle: @Sendable (Outcome) -> Bool = { outcome in
                guard let continuation = pending.withLock({ $0.take() }) else { return false }
                continuation.resume(returning: outcome)
                return true
            }
            let teardown = Task {
                await module.moduleTearDown()
                _ = settle(.finished)
            }
            timer = Task {
                do {
                    try await Task.sleep(for: timeLimit)
                } catch {
                    return
                }
                if settle(.timedOut) { teardown.cancel() }
            }
        }
        timer?.cancel()
        return ModuleManager.TeardownRecord(module: identifier, outcome: outcome, duration: clock.now - start, timeLimit: timeLimit)
    }
}
