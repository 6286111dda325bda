import ModuleHost
import Synchronization

/// A one-shot signal: the blocking startup phases finished (with their report), or startup failed.
/// Waiters that come after it was settled get the result at once.
final class Readiness: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Result<StartupReport, ModuleHostServiceError>, Never>])
        case settled(Result<StartupReport, ModuleHostServiceError>)
    }

    private let state = Mutex(State.waiting([]))

    /// Settles the signal; later calls do nothing.
    func settle(_ result: Result<StartupReport, ModuleHostServiceError>) {
        let waiters: [CheckedContinuation<Result<StartupReport, ModuleHostServiceError>, Never>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .settled(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits until the signal is settled.
    func wait() async -> Result<StartupReport, ModuleHostServiceError> {
        await withCheckedContinuation { continuation in
            let settled: Result<StartupReport, ModuleHostServiceError>? = state.withLock { state in
                switch state {
                case .settled(let result):
                    return result
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
