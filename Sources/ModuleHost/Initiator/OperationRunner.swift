/// How one run of an operation's body ended.
enum OperationOutcome: Sendable, Equatable {
    /// The body returned.
    case succeeded
    /// The body threw; the error's description.
    case failed(String)
    /// The timeout elapsed first.
    case timedOut(Duration)
    /// The scheduler's task was cancelled first.
    case cancelled

    /// Whether dependents may run.
    var isSuccess: Bool { self == .succeeded }
}

/// Runs an operation's body in its own unstructured task, racing it against its timeout and against
/// cancellation of the caller; whichever ends first decides the outcome. On a timeout or cancellation the
/// body's task is cancelled and *not* awaited, so a body that ignores cancellation cannot hold startup hostage.
enum OperationRunner {
    /// Runs `body` and returns how it ended; on the main actor when `onMainActor`, else at `priority`.
    ///
    /// `body` is `nonisolated(nonsending)`, so it runs on the executor of the task that calls it: the main
    /// actor for the `@MainActor` task, the global concurrent executor for the nonisolated one.
    ///
    /// Never inlined: a scheduler that inlined it would have the runtime build the race's types (and check their
    /// conformances) on every first start, even when no operation has a timeout.
    @inline(never)
    static func run(
        _ body: @escaping StartupOperationBody, timeout: Duration?, onMainActor: Bool, priority: TaskPriority?
    ) async -> OperationOutcome {
        let race = OperationRace()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<OperationOutcome, Never>) in
                guard race.install(continuation) else { return }
                let work: Task<Void, Never>
                if onMainActor {
                    work = Task { @MainActor in
                        do { try await body(); race.finish(.succeeded) } catch { race.finish(.failed(describe(error))) }
                    }
                } else {
                    // Nonisolated (this function is), so a nonsending body runs off the main actor.
                    work = Task(priority: priority) {
                        do { try await body(); race.finish(.succeeded) } catch { race.finish(.failed(describe(error))) }
                    }
                }
                var timer: Task<Void, Never>?
                if let timeout {
                    timer = Task {
                        try? await Task.sleep(for: timeout)
                        if !Task.isCancelled { race.finish(.timedOut(timeout)) }
                    }
                }
                race.register(work: work, timer: timer)
            }
        } onCancel: {
            race.finish(.cancelled)
        }
    }

    /// A one-line description of an error thrown by a body.
    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }
}

/// The once-only meeting point of a body, its timer and cancellation.
final class OperationRace: Sendable {
    private struct State {
        var continuation: CheckedContinuation<OperationOutcome, Never>?
        var outcome: OperationOutcome?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Stores the continuation; returns `false` (after resuming it) when the race is already decided.
    func install(_ continuation: CheckedContinuation<OperationOutcome, Never>) -> Bool {
        let decided: OperationOutcome? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let decided {
            continuation.resume(returning: decided)
            return false
        }
        return true
    }

    /// Stores the body's and timer's tasks, cancelling them at once if the race is already decided.
    func register(work: Task<Void, Never>, timer: Task<Void, Never>?) {
        let decided = state.withLock { state in
            if state.outcome != nil { return true }
            state.work = work
            state.timer = timer
            return false
        }
        if decided {
            work.cancel()
            timer?.cancel()
        }
    }

    /// Decides the race with `outcome` unless it is already decided; cancels the losers.
    func finish(_ outcome: OperationOutcome) {
        let taken = state.withLock { state -> (CheckedContinuation<OperationOutcome, Never>?, Task<Void, Never>?, Task<Void, Never>?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil; state.work = nil; state.timer = nil }
            return (state.continuation, state.work, state.timer)
        }
        guard let (continuation, work, timer) = taken else { return }
        timer?.cancel()
        if outcome != .succeeded { work?.cancel() }
        continuation?.resume(returning: outcome)
    }
}
