import AuthInterface
import ModuleHost
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `stateChanges()` streams of one authenticator. Each starts with the state when it was opened and gets
/// every change after; a stream leaves the registry when its consumer stops or drops it, and all of them end
/// when the authenticator goes away.
final class StateStreams: Sendable {
    private struct Registry {
        var continuations: [UInt64: AsyncStream<AuthenticationModel>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let registry = Locked(Registry())

    init() {}

    /// The streams still open.
    var count: Int {
        registry.withLock { $0.continuations.count }
    }

    /// A new stream that yields `current` first.
    func open(startingWith current: AuthenticationModel) -> AsyncStream<AuthenticationModel> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthenticationModel.self, bufferingPolicy: .unbounded)
        let id = registry.withLock { r in
            r.nextID += 1
            r.continuations[r.nextID] = continuation
            return r.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.registry.withLock { r in _ = r.continuations.removeValue(forKey: id) }
        }
        continuation.yield(current)
        return stream
    }

    /// Sends `model` to every open stream.
    func yield(_ model: AuthenticationModel) {
        registry.withLock { r in
            for continuation in r.continuations.values {
                continuation.yield(model)
            }
        }
    }

    /// Ends every stream. Finishing runs each stream's termination handler, so it happens outside the lock.
    func finishAll() {
        let continuations = registry.withLock { r in
            defer { r.continuations.removeAll() }
            return Array(r.continuations.values)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }
}

/// Delivers session changes to a handler one at a time and in the order they were enqueued,
/// without holding the authenticator's lock during the call.
final class ChangeNotifier: Sendable {
    private struct Queue {
        var pending: [SessionChange] = []
        var draining = false
    }

    private let handler: @Sendable (SessionChange) -> Void
    private let queue = Locked(Queue())

    init(handler: @escaping @Sendable (SessionChange) -> Void) {
        self.handler = handler
    }

    func enqueue(_ change: SessionChange) {
        queue.withLock { $0.pending.append(change) }
    }

    /// Delivers pending changes unless another thread is already doing so (it will deliver
    /// ours too). Must be called without the authenticator's lock held.
    func drain() {
        let shouldDrain = queue.withLock { q in
            if q.draining { return false }
            q.draining = true
            return true
        }
        guard shouldDrain else { return }
        while let next = queue.withLock({ q -> SessionChange? in
            if q.pending.isEmpty {
                q.draining = false
                return nil
            }
            return q.pending.removeFirst()
        }) {
            handler(next)
        }
    }
}
