import ModuleHost
import Synchronization

/// A one-shot signal: the blocking startup phases finished (with their report), or startup failed. Waiters
/// that come after it was settled get the result at once; a waiter whose task is cancelled stops waiting.
final class Readiness: Sendable {
    typealias Outcome = Result<StartupReport, ModuleHostServiceError>

    private struct State {
        var settled: Outcome?
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Settles the signal; later calls do nothing.
    func settle(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard state.settled == nil else { return [] }
            state.settled = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits until the signal is settled, or until the calling task is cancelled.
    func wait() async -> Outcome {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Outcome? in
                    if let settled = state.settled { return settled }
                    if Task.isCancelled { return .failure(.waitCancelled) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: .failure(.waitCancelled))
        }
    }
}
