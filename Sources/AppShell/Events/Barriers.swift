import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Barrier records in the signal pipe (``Signals/settle()``): one is written after the signal records there, and
/// waited for until the signal thread has read it, and so reacted to every signal before it (the pipe keeps their
/// order).
final class Barriers: Sendable {
    /// A barrier's record: 0, the number of no signal.
    static let record: Int32 = 0

    private struct State {
        /// Whether the signal thread runs.
        var running = false
        /// Those waiting for the barriers they wrote, in the order they wrote them.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// The signal thread runs: barriers are read from now on.
    func start() {
        state.withLock { $0.running = true }
    }

    /// Writes a barrier to `descriptor` and waits until the signal thread has read it; returns at once when the
    /// thread does not run or the pipe is full (a flood of signals: the records already there end the shell).
    func pass(writing descriptor: Int32) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let written = state.withLock { state in
                var barrier = Self.record
                // Written under the lock, so the waiting are in the order of their barriers in the pipe.
                guard state.running, write(descriptor, &barrier, 4) == 4 else { return false }
                state.waiting.append(continuation)
                return true
            }
            if !written { continuation.resume() }
        }
    }

    /// The signal thread read a barrier: the first one waiting goes on.
    func passed() {
        let first = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
        first?.resume()
    }
}
